// A release whose desktop integration fails still installs: the new AppImage stays, the previous
// entry stays, the outcome carries a warning (JSON and human), exit 0; the next good release
// replaces the entry.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  corruptSquashfs,
  desktopFileValidate,
  exists,
  key,
  readDesktop,
  useIntegrationSuite,
} from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { sha256 } from '../../helpers/sha256.js';

const suite = useIntegrationSuite();

void describe('desktop integration failure during update', () => {
  void test('no .desktop in v2, corrupt SquashFS in v3: installed with a warning; v4 replaces the entry', async () => {
    const w = await suite.world();
    const app = 'fragile';
    await w.recipe(app, ['desktop_exec_args: ["--no-sandbox"]']);
    const installedFile = join(w.storageDir, `${app}.AppImage`);
    const desktopFile = join(w.applicationsDir, `${app}.desktop`);
    const icon = join(w.hicolorDir, '256x256', 'apps', `appimage-keeper-${app}.png`);

    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    const r1 = await w.update();
    assert.equal(r1.code, 0, r1.stderr);
    const entryV1 = await readFile(desktopFile);
    const iconV1 = await readFile(icon);
    const recordV1 = (await w.state()).apps[app]?.integration;
    assert.ok(recordV1);

    // v2: a valid AppImage without any desktop file (JSON output).
    const v2 = await fixtureAppImage(app, '2.0', { desktop: false });
    publishHubRelease(suite.sim, app, '2.0', v2);
    const r2 = await w.update();
    assert.equal(r2.code, 0, r2.stderr);
    const o2 = appOf(r2, app);
    assert.equal(o2.status, 'updated');
    assert.equal(o2.to_version, '2.0');
    assert.equal(o2.error, null);
    assert.equal(o2.warnings.length, 1, o2.warnings.join('\n'));
    assert.match(o2.warnings[0] ?? '', /desktop integration failed.*kept the previous entry/);
    assert.match(o2.warnings[0] ?? '', /no \.desktop file/);
    assert.equal(sha256(await readFile(installedFile)), sha256(v2));
    assert.deepEqual(await readFile(desktopFile), entryV1);
    assert.deepEqual(await readFile(icon), iconV1);
    const s2 = await w.state();
    assert.equal(s2.apps[app]?.installed?.version, '2.0');
    assert.deepEqual(s2.apps[app]?.integration, recordV1);

    // v3: ELF, AppImage and SquashFS magic intact, tables damaged (human output this time).
    const v3 = corruptSquashfs(await fixtureAppImage(app, '3.0'));
    publishHubRelease(suite.sim, app, '3.0', v3);
    const r3 = await w.cli(['update']);
    assert.equal(r3.code, 0, `${r3.stdout}\n${r3.stderr}`);
    assert.match(r3.stdout, /updated\s+fragile 2\.0 → 3\.0/);
    assert.match(r3.stdout, /warning: desktop integration failed, kept the previous entry/);
    assert.match(r3.stdout, /1 updated, 0 up to date, 0 rate-limited, 0 failed/);
    assert.equal(sha256(await readFile(installedFile)), sha256(v3));
    assert.deepEqual(await readFile(desktopFile), entryV1);
    assert.deepEqual(await readFile(icon), iconV1);
    assert.deepEqual((await w.state()).apps[app]?.integration, recordV1);

    // v4: a good release replaces the entry.
    publishHubRelease(suite.sim, app, '4.0', await fixtureAppImage(app, '4.0'));
    const r4 = await w.update();
    assert.equal(r4.code, 0, r4.stderr);
    assert.deepEqual(appOf(r4, app).warnings, []);
    const g = await readDesktop(desktopFile);
    assert.equal(key(g, 'Desktop Entry', 'X-AppImage-Version'), '4.0');
    assert.equal(key(g, 'Desktop Entry', 'Exec'), `${installedFile} --no-sandbox %U`);
    assert.deepEqual((await w.state()).apps[app]?.integration, recordV1);
  });

  void test('versioned file names: the kept entry is pointed at the new file, so it still launches', async () => {
    const w = await suite.world();
    const app = 'versioned';
    await w.recipe(app, ['naming_format: "{name}-{version}.AppImage"', 'desktop_env: { MODE: safe }']);
    const desktopFile = join(w.applicationsDir, `${app}.desktop`);
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    assert.equal((await w.update()).code, 0);
    const v1 = join(w.storageDir, `${app}-1.0.AppImage`);
    assert.equal(key(await readDesktop(desktopFile), 'Desktop Entry', 'TryExec'), v1);

    publishHubRelease(suite.sim, app, '2.0', await fixtureAppImage(app, '2.0', { desktop: false }));
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    assert.match(appOf(r, app).warnings.join('\n'), /desktop integration failed/);
    const v2 = join(w.storageDir, `${app}-2.0.AppImage`);
    assert.equal(await exists(v1), false);
    const g = await readDesktop(desktopFile);
    assert.equal(key(g, 'Desktop Entry', 'TryExec'), v2);
    assert.equal(key(g, 'Desktop Entry', 'Exec'), `env MODE=safe ${v2} %U`);
    assert.equal(key(g, 'Desktop Action new-window', 'Exec'), `env MODE=safe ${v2} --new-window %U`);
    // Everything else of the v1 entry is kept as it was.
    assert.equal(key(g, 'Desktop Entry', 'X-AppImage-Version'), '1.0');
    assert.equal(key(g, 'Desktop Entry', 'Icon'), `appimage-keeper-${app}`);
    const v = await desktopFileValidate(desktopFile);
    assert.equal(v.code, 0, v.output);
  });

  void test('a first install whose image has no desktop file: installed, warning, nothing integrated', async () => {
    const w = await suite.world();
    const app = 'bare';
    await w.recipe(app);
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0', { desktop: false }));
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(appOf(r, app).status, 'updated');
    assert.match(appOf(r, app).warnings.join('\n'), /desktop integration failed/);
    assert.equal((await w.state()).apps[app]?.integration, undefined);
    const rm = await w.remove([app]);
    assert.equal(rm.code, 0, rm.stderr);
  });
});
