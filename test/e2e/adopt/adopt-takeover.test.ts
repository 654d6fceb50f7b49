// Taking a file over from AppImageLauncher or Gear Lever: their desktop entry (and icons) for it
// are retired to our backup folder, listed in the plan, and put back by `remove`; `doctor` reports
// an AppImage desktop entry whose file is gone.
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';

interface Row {
  file: string;
  status: string;
  name: string | null;
  retire: { entry: string; icons: string[]; manager: string }[];
  result: { path: string; retired: { from: string; backup: string }[] } | null;
}
interface AdoptJson {
  files: Row[];
}
interface DoctorJson {
  checks: { id: string; status: string; message: string; hint: string | null }[];
}

const suite = useSimSuite(
  (sim) => makeSimWorld(sim, { configLines: ['manage_desktop_files: true'] }),
  disposeFixtureAppImages,
);
after(disposeFixtureAppImages);

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

const MD5 = '0123456789abcdef0123456789abcdef';
const OTHER_MD5 = 'fedcba9876543210fedcba9876543210';

async function launcherWorld(w: SimWorld) {
  const dir = join(w.home.home, 'Applications');
  await mkdir(dir, { recursive: true });
  const body = await fixtureAppImage('launched', '1.2.0', {
    updateInfo: 'gh-releases-zsync|e2e|launched|latest|Launched-*-x86_64.AppImage.zsync',
  });
  const file = join(dir, `Launched_${MD5}.AppImage`);
  await writeFile(file, body, { mode: 0o755 });
  const apps = join(w.home.dataHome, 'applications');
  const icons = join(w.home.dataHome, 'icons', 'hicolor', '256x256', 'apps');
  await mkdir(apps, { recursive: true });
  await mkdir(icons, { recursive: true });
  const entry = join(apps, `appimagekit_${MD5}-Launched.desktop`);
  const entryText = [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Launched',
    `Exec=${file} %U`,
    `TryExec=${file}`,
    `Icon=appimagekit_${MD5}_launched`,
    'X-AppImage-Version=1.2.0',
    '',
  ].join('\n');
  await writeFile(entry, entryText);
  const icon = join(icons, `appimagekit_${MD5}_launched.png`);
  await writeFile(icon, 'png');
  // Another file's entry, still alive: never touched.
  const otherFile = join(dir, `Other_${OTHER_MD5}.AppImage`);
  await writeFile(otherFile, 'not adopted here');
  const otherEntry = join(apps, `appimagekit_${OTHER_MD5}-Other.desktop`);
  await writeFile(otherEntry, `[Desktop Entry]\nType=Application\nName=Other\nExec=${otherFile}\n`);
  return { dir, file, entry, entryText, icon, otherEntry };
}

void describe('taking over from AppImageLauncher', () => {
  void test('its appimagekit_ entry and icon are retired, listed in the plan, and restored by remove', async () => {
    const w = await suite.world();
    const s = await launcherWorld(w);
    const plan = await w.run<AdoptJson>(['--json', 'adopt', s.file]);
    const row = plan.json?.files[0];
    assert.equal(row?.status, 'adopted', plan.stdout + plan.stderr);
    assert.deepEqual(row?.result?.retired.map((r) => r.from).sort(), [s.entry, s.icon].sort(), plan.stdout);
    assert.equal(await exists(s.entry), false);
    assert.equal(await exists(s.icon), false);
    assert.ok(await exists(s.otherEntry));
    for (const r of row?.result?.retired ?? []) {
      assert.ok(r.backup.startsWith(join(w.home.stateDir, 'retired')), r.backup);
      assert.ok(await exists(r.backup));
    }
    // The menu holds one entry for the app: ours.
    const entries = await readdir(join(w.home.dataHome, 'applications'));
    assert.equal(entries.filter((e) => /launched/i.test(e)).length, 1, entries.join(' '));
    const doctor = await w.run<DoctorJson>(['--json', 'doctor']);
    assert.equal(
      doctor.json?.checks.find((c) => c.id === 'foreign-desktop-entries')?.status,
      'ok',
      doctor.stdout,
    );

    const rm = await w.run(['--json', 'remove', 'launched']);
    assert.equal(rm.code, 0, rm.stdout + rm.stderr);
    assert.equal(await readFile(s.entry, 'utf8'), s.entryText);
    assert.equal(await readFile(s.icon, 'utf8'), 'png');
  });

  void test('the plan lists the entry it will retire', async () => {
    const w = await suite.world();
    const s = await launcherWorld(w);
    const dry = await w.run<AdoptJson>(['--json', 'adopt', '--scan', s.dir]);
    const row = dry.json?.files.find((f) => f.file === s.file);
    assert.deepEqual(row?.retire, [{ manager: 'appimagelauncher', entry: s.entry, icons: [s.icon] }]);
    const human = await w.run(['adopt', '--scan', s.dir]);
    assert.match(human.stdout, /retire.*appimagekit_0123456789abcdef0123456789abcdef-Launched\.desktop/);
    assert.ok(await exists(s.entry));
  });

  void test('doctor reports an AppImage desktop entry whose file is gone', async () => {
    const w = await suite.world();
    const apps = join(w.home.dataHome, 'applications');
    await mkdir(apps, { recursive: true });
    const dead = join(apps, `appimagekit_${MD5}-Gone.desktop`);
    await writeFile(
      dead,
      `[Desktop Entry]\nType=Application\nName=Gone\nExec=${w.home.home}/Applications/Gone.AppImage %U\n`,
    );
    // An entry with our mark is checked against state, not here.
    await writeFile(
      join(apps, 'org.example.Ours.desktop'),
      `[Desktop Entry]\nType=Application\nName=Ours\nExec=${w.home.home}/gone/Ours.AppImage\nX-AppImage-Keeper-App=ours\n`,
    );
    const doctor = await w.run<DoctorJson>(['--json', 'doctor']);
    const c = doctor.json?.checks.find((x) => x.id === 'foreign-desktop-entries');
    assert.equal(c?.status, 'warn', doctor.stdout);
    assert.match(c?.message ?? '', /Gone\.desktop/);
    assert.match(c?.message ?? '', /Gone\.AppImage/);
    assert.doesNotMatch(c?.message ?? '', /Ours/);
  });
});

void describe('taking over from Gear Lever', () => {
  void test('its gearlever_ entry and .icons copy are retired; the menu keeps one working entry', async () => {
    const w = await suite.world();
    const dir = join(w.home.home, 'AppImages');
    await mkdir(join(dir, '.icons'), { recursive: true });
    const body = await fixtureAppImage('geared', '4.0', {
      updateInfo: 'gh-releases-zsync|e2e|geared|latest|Geared-*.AppImage.zsync',
    });
    const base = 'gearlever_geared_0a1b2c.appimage';
    const file = join(dir, base);
    await writeFile(file, body, { mode: 0o755 });
    const icon = join(dir, '.icons', base);
    await writeFile(icon, 'png');
    const apps = join(w.home.dataHome, 'applications');
    await mkdir(apps, { recursive: true });
    const entry = join(apps, `${base}.desktop`);
    await writeFile(
      entry,
      `[Desktop Entry]\nType=Application\nName=Geared\nExec="${file}" %U\nIcon=${icon}\nX-AppImage-Version=4.0\n`,
    );
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(r.json?.files[0]?.result?.retired.map((x) => x.from).sort(), [entry, icon].sort());
    assert.equal(await exists(entry), false);
    const entries = await readdir(apps);
    assert.equal(entries.filter((e) => /geared/i.test(e)).length, 1, entries.join(' '));
  });
});
