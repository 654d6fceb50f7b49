// AppImages that start on today's distributions: an Electron app under Ubuntu's AppArmor userns switch
// gets --no-sandbox, an old FUSE 2 runtime without libfuse.so.2 gets APPIMAGE_EXTRACT_AND_RUN=1, the
// fixes follow the host on later runs, and the user's own launch settings always win. The host is a
// fake root (APPIMAGE_KEEPER_HOST_ROOT) so the tests do not depend on this machine's kernel.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { desktopFileValidate, key, readDesktop, useIntegrationSuite, type World } from './harness.js';

const suite = useIntegrationSuite();
const roots: string[] = [];
after(async () => {
  await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true })));
});

/** A fake host root: the AppArmor switch and, optionally, libfuse.so.2 in a library directory. */
async function fakeHost(opts: { userns: '0' | '1' | 'absent'; libfuse2: boolean }): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ak-host-'));
  roots.push(root);
  await setHost(root, opts);
  return root;
}

async function setHost(
  root: string,
  opts: { userns: '0' | '1' | 'absent'; libfuse2: boolean },
): Promise<void> {
  const sysctl = join(root, 'proc/sys/kernel');
  await rm(join(root, 'proc'), { recursive: true, force: true });
  await rm(join(root, 'usr'), { recursive: true, force: true });
  if (opts.userns !== 'absent') {
    await mkdir(sysctl, { recursive: true });
    await writeFile(join(sysctl, 'apparmor_restrict_unprivileged_userns'), `${opts.userns}\n`);
  }
  if (opts.libfuse2) {
    const lib = join(root, 'usr/lib/x86_64-linux-gnu');
    await mkdir(lib, { recursive: true });
    await writeFile(join(lib, 'libfuse.so.2'), 'ELF');
  }
}

/** An Electron-like AppImage with an old FUSE 2 runtime. */
function electronApp(app: string, version: string): Promise<Buffer> {
  return fixtureAppImage(app, version, {
    extraFiles: { 'chrome-sandbox': 'setuid helper', 'resources/app.asar': 'asar archive' },
    runtimeDlopen: 'libfuse.so.2',
  });
}

async function world(app: string, root: string, recipe: string[] = []): Promise<World> {
  const w = await suite.world();
  w.env.APPIMAGE_KEEPER_HOST_ROOT = root;
  publishHubRelease(suite.sim, app, '1.0', await electronApp(app, '1.0'));
  await w.recipe(app, recipe);
  return w;
}

void describe('update: launch fixes', () => {
  void test('Ubuntu 24.04 without libfuse2: --no-sandbox before the field codes and extract-and-run, said once', async () => {
    const app = 'electra';
    const root = await fakeHost({ userns: '1', libfuse2: false });
    const w = await world(app, root);
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const a = appOf(run, app);
    assert.equal(a.status, 'updated');
    assert.ok(
      a.warnings.some((x) => /added --no-sandbox.*apparmor_restrict_unprivileged_userns=1/.test(x)),
      a.warnings.join('\n'),
    );
    assert.ok(
      a.warnings.some((x) => /APPIMAGE_EXTRACT_AND_RUN=1.*libfuse\.so\.2/.test(x)),
      a.warnings.join('\n'),
    );
    const desktop = join(w.applicationsDir, `${app}.desktop`);
    const exe = join(w.storageDir, `${app}.AppImage`);
    const g = await readDesktop(desktop);
    assert.equal(key(g, 'Desktop Entry', 'Exec'), `env APPIMAGE_EXTRACT_AND_RUN=1 ${exe} --no-sandbox %U`);
    assert.equal(
      key(g, 'Desktop Action new-window', 'Exec'),
      `env APPIMAGE_EXTRACT_AND_RUN=1 ${exe} --new-window --no-sandbox %U`,
    );
    const v = await desktopFileValidate(desktop);
    assert.equal(v.code, 0, v.output);
    const state = await w.state();
    assert.deepEqual((state.apps[app]?.integration as { launch?: unknown } | undefined)?.launch, {
      electron: 'chrome-sandbox',
      libfuse2: true,
      fixes: ['no-sandbox', 'extract-and-run'],
    });

    // doctor lists the app, both fixes applied, and prints the AppArmor profile that keeps the sandbox.
    const doc = await w.cli(['--json', 'doctor']);
    const launch = (
      doc.json as { checks: { id: string; status: string; message: string; hint: string }[] }
    ).checks.find((ch) => ch.id === 'launch-fixes');
    assert.equal(launch?.status, 'warn');
    assert.equal(launch?.message, `${app}: no-sandbox applied, extract-and-run applied`);
    assert.match(
      launch?.hint ?? '',
      new RegExp(`profile appimage-keeper-${app} "${w.storageDir}/${app}\\.AppImage" flags=\\(unconfined\\)`),
    );
    assert.match(launch?.hint ?? '', /sudo apparmor_parser -r \/etc\/apparmor\.d\/appimage-keeper-electra/);
    // With that profile installed the sandbox works: the next run drops --no-sandbox.
    await mkdir(join(root, 'etc/apparmor.d'), { recursive: true });
    await writeFile(join(root, 'etc/apparmor.d', `appimage-keeper-${app}`), 'profile');
    const prof = await w.update();
    assert.ok(
      appOf(prof, app).warnings.some((x) => /removed no-sandbox/.test(x)),
      appOf(prof, app).warnings.join('\n'),
    );
    assert.doesNotMatch(key(await readDesktop(desktop), 'Desktop Entry', 'Exec'), /--no-sandbox/);
    await rm(join(root, 'etc'), { recursive: true });
    const back = await w.update();
    assert.match(key(await readDesktop(desktop), 'Desktop Entry', 'Exec'), /--no-sandbox %U$/, back.stdout);

    // Nothing changed: the next run is quiet about it.
    const again = await w.update();
    assert.equal(appOf(again, app).status, 'up_to_date');
    assert.deepEqual(appOf(again, app).warnings, []);

    // The fixes survive an update to a new release.
    publishHubRelease(suite.sim, app, '2.0', await electronApp(app, '2.0'));
    const v2 = await w.update();
    assert.equal(appOf(v2, app).status, 'updated');
    assert.deepEqual(appOf(v2, app).warnings, []);
    assert.match(key(await readDesktop(desktop), 'Desktop Entry', 'Exec'), /--no-sandbox %U$/);

    // libfuse2 installed and the switch off: the next run (no new release) undoes both fixes.
    await setHost(root, { userns: '0', libfuse2: true });
    const fixed = await w.update();
    assert.equal(fixed.code, 0, fixed.stderr);
    const f = appOf(fixed, app);
    assert.equal(f.status, 'up_to_date');
    assert.ok(
      f.warnings.some((x) => /removed no-sandbox/.test(x)),
      f.warnings.join('\n'),
    );
    assert.ok(
      f.warnings.some((x) => /removed extract-and-run/.test(x)),
      f.warnings.join('\n'),
    );
    assert.equal(key(await readDesktop(desktop), 'Desktop Entry', 'Exec'), `${exe} %U`);
    const human = await w.cli(['update']);
    assert.doesNotMatch(human.stdout, /launch fix/, 'said once, not on every run');
    const clean = await w.cli(['--json', 'doctor']);
    const after = (clean.json as { checks: { id: string; status: string }[] }).checks.find(
      (ch) => ch.id === 'launch-fixes',
    );
    assert.equal(after?.status, 'ok');
  });

  void test('a host that needs nothing gets nothing', async () => {
    const app = 'calm';
    const w = await world(app, await fakeHost({ userns: 'absent', libfuse2: true }));
    const run = await w.update();
    assert.deepEqual(appOf(run, app).warnings, []);
    const exe = join(w.storageDir, `${app}.AppImage`);
    assert.equal(
      key(await readDesktop(join(w.applicationsDir, `${app}.desktop`)), 'Desktop Entry', 'Exec'),
      `${exe} %U`,
    );
  });

  void test("the user's desktop_exec_args and desktop_env win; launch_fixes: false turns the fixes off", async () => {
    const root = await fakeHost({ userns: '1', libfuse2: false });
    const own = await world('own', root, [
      'desktop_exec_args: ["--no-sandbox", "--ozone-platform=wayland"]',
      'desktop_env: { APPIMAGE_EXTRACT_AND_RUN: "0" }',
    ]);
    const r = await own.update();
    assert.equal(r.code, 0, r.stderr);
    const exe = join(own.storageDir, 'own.AppImage');
    assert.equal(
      key(await readDesktop(join(own.applicationsDir, 'own.desktop')), 'Desktop Entry', 'Exec'),
      `env APPIMAGE_EXTRACT_AND_RUN=0 ${exe} --no-sandbox --ozone-platform=wayland %U`,
    );
    assert.ok(appOf(r, 'own').warnings.some((x) => /desktop_exec_args already has --no-sandbox/.test(x)));

    const off = await world('off', root, ['launch_fixes: false']);
    const o = await off.update();
    const offExe = join(off.storageDir, 'off.AppImage');
    assert.equal(
      key(await readDesktop(join(off.applicationsDir, 'off.desktop')), 'Desktop Entry', 'Exec'),
      `${offExe} %U`,
    );
    assert.ok(appOf(o, 'off').warnings.some((x) => /not added \(launch_fixes: false\)/.test(x)));
  });
});
