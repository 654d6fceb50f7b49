// `update` installs the desktop entry and icon end to end: the built CLI against the in-process sim,
// real AppImages, a temp XDG_DATA_HOME, and desktop-file-validate on what we wrote.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultDesktopEntry } from '../../../fixtures/make-appimage.js';
import { desktopFileValidate, exists, key, listDir, readDesktop, useIntegrationSuite } from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { snapshotTree } from '../../helpers/snapshot-tree.js';

/** An upstream entry with arguments, quoting, field codes, an env prefix and two actions. */
function richDesktop(name: string, version: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Rich',
    'Comment=Fixture with launch arguments',
    `Exec=env UPSTREAM=1 ${name} --profile "My Profile" %F`,
    `TryExec=${name}`,
    `Icon=${name}`,
    'Terminal=false',
    'Categories=Utility;',
    'MimeType=text/plain;',
    'Actions=new-window;private;',
    `X-AppImage-Version=${version}`,
    '',
    '[Desktop Action new-window]',
    'Name=New Window',
    `Exec=${name} --new-window %U`,
    '',
    '[Desktop Action private]',
    'Name=Private',
    `Exec=${name} --private`,
    '',
  ].join('\n');
}

const LAUNCH = [
  '  desktop_exec_args: ["--no-sandbox", "--ozone-platform=wayland"]',
  '  desktop_env: { GREETING: "hello world", ELECTRON_OZONE_PLATFORM_HINT: wayland }',
];

const suite = useIntegrationSuite();

void describe('update installs the desktop entry and icon', () => {
  void test('upstream id, icon, Exec/TryExec in every group, launch customisations, mark; kept on v2', async () => {
    const w = await suite.world();
    const app = 'rich';
    publishHubRelease(
      suite.sim,
      app,
      '1.0',
      await fixtureAppImage(app, '1.0', { desktop: richDesktop(app, '1.0'), icon: 'png' }),
    );
    await w.recipe(app, ['naming_format: "{name}-{version}.AppImage"', ...LAUNCH.map((l) => l.slice(2))]);
    const r1 = await w.update();
    assert.equal(r1.code, 0, r1.stderr);
    assert.equal(appOf(r1, app).status, 'updated');
    assert.deepEqual(appOf(r1, app).warnings, []);

    const desktopFile = join(w.applicationsDir, `${app}.desktop`);
    const icon = join(w.hicolorDir, '256x256', 'apps', `appimage-keeper-${app}.png`);
    const check = async (version: string): Promise<void> => {
      const exe = join(w.storageDir, `${app}-${version}.AppImage`);
      const g = await readDesktop(desktopFile);
      const env = 'env UPSTREAM=1 "GREETING=hello world" ELECTRON_OZONE_PLATFORM_HINT=wayland';
      const tail = '--no-sandbox --ozone-platform=wayland';
      assert.equal(key(g, 'Desktop Entry', 'Exec'), `${env} ${exe} --profile "My Profile" ${tail} %F`);
      assert.equal(key(g, 'Desktop Entry', 'TryExec'), exe);
      assert.equal(key(g, 'Desktop Entry', 'Icon'), `appimage-keeper-${app}`);
      assert.equal(key(g, 'Desktop Entry', 'X-AppImage-Keeper-App'), app);
      assert.equal(key(g, 'Desktop Entry', 'X-AppImage-Version'), version);
      assert.equal(key(g, 'Desktop Entry', 'MimeType'), 'text/plain;');
      const envNoUpstream = env.replace('UPSTREAM=1 ', '');
      assert.equal(
        key(g, 'Desktop Action new-window', 'Exec'),
        `${envNoUpstream} ${exe} --new-window ${tail} %U`,
      );
      assert.equal(key(g, 'Desktop Action private', 'Exec'), `${envNoUpstream} ${exe} --private ${tail}`);
      // The spec allows no TryExec in action groups; none is added.
      assert.equal(g.get('Desktop Action new-window')?.has('TryExec'), false);
      const v = await desktopFileValidate(desktopFile);
      assert.equal(v.code, 0, v.output);
      assert.doesNotMatch(v.output, /error/i);
      const png = await readFile(icon);
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
      assert.equal(png.readUInt32BE(16), 256);
    };
    await check('1.0');
    // The entry declares MimeType, so the MIME cache is built and names it.
    assert.deepEqual(await listDir(w.applicationsDir), ['mimeinfo.cache', `${app}.desktop`]);
    assert.match(
      await readFile(join(w.applicationsDir, 'mimeinfo.cache'), 'utf8'),
      /^text\/plain=rich\.desktop;$/m,
    );
    const state = await w.state();
    assert.deepEqual(state.apps[app]?.integration, {
      desktopId: app,
      desktopFile,
      icons: [icon],
      launch: { libfuse2: false, fixes: [] },
    });

    publishHubRelease(
      suite.sim,
      app,
      '2.0',
      await fixtureAppImage(app, '2.0', { desktop: richDesktop(app, '2.0'), icon: 'png' }),
    );
    const r2 = await w.update();
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(appOf(r2, app).status, 'updated');
    await check('2.0');
    assert.deepEqual(await listDir(w.applicationsDir), ['mimeinfo.cache', `${app}.desktop`]);
  });

  void test('create_symlinks: Exec and TryExec point at the symlink; svg icon goes to scalable', async () => {
    const w = await suite.world();
    const app = 'linked';
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0', { icon: 'svg' }));
    await w.recipe(app, ['create_symlinks: true']);
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    const link = join(w.symlinkDir, app);
    const g = await readDesktop(join(w.applicationsDir, `${app}.desktop`));
    assert.equal(key(g, 'Desktop Entry', 'Exec'), `${link} %U`);
    assert.equal(key(g, 'Desktop Entry', 'TryExec'), link);
    assert.equal(key(g, 'Desktop Action new-window', 'Exec'), `${link} --new-window %U`);
    assert.equal(key(g, 'Desktop Entry', 'Name[de]'), `${app} (de)`);
    const svg = await readFile(join(w.hicolorDir, 'scalable', 'apps', `appimage-keeper-${app}.svg`), 'utf8');
    assert.match(svg, /<svg/);
    const v = await desktopFileValidate(join(w.applicationsDir, `${app}.desktop`));
    assert.equal(v.code, 0, v.output);
  });

  void test('a foreign <id>.desktop is never overwritten: ours is appimage-keeper-<name>.desktop', async () => {
    const w = await suite.world();
    const app = 'clash';
    const foreign = join(w.applicationsDir, `${app}.desktop`);
    const foreignText = defaultDesktopEntry(app, '0.1-from-the-distro').replace(
      /^Exec=.*$/m,
      'Exec=/usr/bin/clash',
    );
    await mkdir(w.applicationsDir, { recursive: true });
    await writeFile(foreign, foreignText);
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    await w.recipe(app);
    const r1 = await w.update();
    assert.equal(r1.code, 0, r1.stderr);
    const ours = join(w.applicationsDir, `appimage-keeper-${app}.desktop`);
    assert.equal(key(await readDesktop(ours), 'Desktop Entry', 'X-AppImage-Keeper-App'), app);
    assert.equal(await readFile(foreign, 'utf8'), foreignText);
    assert.equal((await w.state()).apps[app]?.integration?.desktopFile, ours);

    publishHubRelease(suite.sim, app, '2.0', await fixtureAppImage(app, '2.0'));
    const r2 = await w.update();
    assert.equal(appOf(r2, app).status, 'updated');
    assert.equal(await readFile(foreign, 'utf8'), foreignText);
    assert.deepEqual(await listDir(w.applicationsDir), [`appimage-keeper-${app}.desktop`, `${app}.desktop`]);
    const v = await desktopFileValidate(ours);
    assert.equal(v.code, 0, v.output);

    const rm = await w.remove([app]);
    assert.equal(rm.code, 0, rm.stderr);
    assert.deepEqual(await listDir(w.applicationsDir), [`${app}.desktop`]);
    assert.equal(await readFile(foreign, 'utf8'), foreignText);
  });

  void test('a foreign icon at our icon path is left alone (warning), the entry keeps the upstream Icon', async () => {
    const w = await suite.world();
    const app = 'iconclash';
    const iconPath = join(w.hicolorDir, '256x256', 'apps', `appimage-keeper-${app}.png`);
    await mkdir(join(iconPath, '..'), { recursive: true });
    await writeFile(iconPath, 'not our icon');
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    await w.recipe(app);
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    assert.match(appOf(r, app).warnings.join('\n'), /not overwriting/);
    assert.equal(await readFile(iconPath, 'utf8'), 'not our icon');
    assert.equal(
      key(await readDesktop(join(w.applicationsDir, `${app}.desktop`)), 'Desktop Entry', 'Icon'),
      app,
    );
    assert.deepEqual((await w.state()).apps[app]?.integration?.icons, []);
  });

  void test('desktop id and icon change between versions: the old ones are removed', async () => {
    const w = await suite.world();
    const app = 'renamer';
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0', { icon: 'png' }));
    await w.recipe(app);
    assert.equal((await w.update()).code, 0);
    const oldDesktop = join(w.applicationsDir, `${app}.desktop`);
    const oldIcon = join(w.hicolorDir, '256x256', 'apps', `appimage-keeper-${app}.png`);
    assert.ok(await exists(oldDesktop));
    assert.ok(await exists(oldIcon));

    // v2 ships org.example.Renamer.desktop naming a different (svg) icon.
    const v2Desktop = defaultDesktopEntry(app, '2.0').replace(/^Icon=.*$/m, 'Icon=org.example.Renamer');
    const body = await fixtureAppImage(app, '2.0', {
      desktop: false,
      icon: false,
      extraFiles: {
        'org.example.Renamer.desktop': v2Desktop,
        'usr/share/icons/hicolor/scalable/apps/org.example.Renamer.svg':
          '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>',
      },
    });
    publishHubRelease(suite.sim, app, '2.0', body);
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(appOf(r, app).warnings, []);
    const newDesktop = join(w.applicationsDir, 'org.example.Renamer.desktop');
    const newIcon = join(w.hicolorDir, 'scalable', 'apps', `appimage-keeper-${app}.svg`);
    assert.deepEqual(await listDir(w.applicationsDir), ['org.example.Renamer.desktop']);
    assert.equal(await exists(oldIcon), false);
    // The emptied size directory is pruned; hicolor keeps only what is in use.
    assert.deepEqual(await listDir(w.hicolorDir), ['scalable']);
    assert.ok(await exists(newIcon));
    assert.equal(key(await readDesktop(newDesktop), 'Desktop Entry', 'Icon'), `appimage-keeper-${app}`);
    assert.deepEqual((await w.state()).apps[app]?.integration, {
      desktopId: 'org.example.Renamer',
      desktopFile: newDesktop,
      icons: [newIcon],
      launch: { libfuse2: false, fixes: [] },
    });
  });

  void test('manage_desktop_files: false writes nothing under XDG_DATA_HOME', async () => {
    const w = await suite.world(['manage_desktop_files: false']);
    const app = 'plain';
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    await w.recipe(app);
    const before = await snapshotTree(w.home.root, [w.home.dataHome]);
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(appOf(r, app).status, 'updated');
    assert.deepEqual(await snapshotTree(w.home.root, [w.home.dataHome]), before);
    assert.equal((await w.state()).apps[app]?.integration, undefined);
  });

  void test('the recipe override manage_desktop_files: false wins over the global true', async () => {
    const w = await suite.world(['manage_desktop_files: true']);
    const app = 'plainrecipe';
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    await w.recipe(app, ['integration: false']);
    const before = await snapshotTree(w.home.root, [w.home.dataHome]);
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await snapshotTree(w.home.root, [w.home.dataHome]), before);
  });
});
