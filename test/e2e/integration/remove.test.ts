// `remove` end to end: it undoes exactly what state recorded, reports what was already gone, purges
// recipes on request, cleans orphans and stray temp files, and respects the lock and the user's files.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bootTag } from '../../../src/core/process-owner.js';
import { bootId } from '../../../src/state/lock.js';
import { deadPid } from '../../helpers/dead-pid.js';
import { exists, listDir, seedUserFiles, type World, useIntegrationSuite } from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { snapshotTree } from '../../helpers/snapshot-tree.js';

const suite = useIntegrationSuite();

/** Installs v1 then v2 of `app` so a previous version is kept too. */
async function installTwice(w: World, app: string): Promise<void> {
  publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
  const r1 = await w.update([app]);
  assert.equal(r1.code, 0, r1.stderr);
  publishHubRelease(suite.sim, app, '2.0', await fixtureAppImage(app, '2.0'));
  const r2 = await w.update([app]);
  assert.equal(r2.code, 0, r2.stderr);
}

void describe('remove', () => {
  void test('removes exactly what state recorded: AppImage, previous version, entry, icon, symlink, state', async () => {
    const w = await suite.world(['create_symlinks: true']);
    const app = 'gone';
    await w.recipe(app);
    await installTwice(w, app);
    const st = (await w.state()).apps[app];
    const recorded = [
      st?.installed?.file,
      st?.previous?.file,
      st?.symlink,
      st?.integration?.desktopFile,
      ...(st?.integration?.icons ?? []),
    ];
    assert.deepEqual(recorded, [
      join(w.storageDir, `${app}.AppImage`),
      join(w.storageDir, '.appimage-keeper-previous', `${app}.AppImage`),
      join(w.symlinkDir, app),
      join(w.applicationsDir, `${app}.desktop`),
      join(w.hicolorDir, '256x256', 'apps', `appimage-keeper-${app}.png`),
    ]);
    for (const p of recorded) assert.ok(await exists(p), p);

    const r = await w.remove([app]);
    assert.equal(r.code, 0, r.stderr);
    const out = appOf(r, app);
    assert.deepEqual([...out.removed].sort(), [...recorded].sort());
    assert.deepEqual(out.missing, []);
    assert.deepEqual(out.errors, []);
    assert.equal(out.purged_recipe, null);
    for (const p of recorded) assert.equal(await exists(p), false, p);
    // Only the removal mark stays in state (so `update` does not reinstall it).
    assert.deepEqual(Object.keys((await w.state()).apps[app] ?? {}).sort(), ['removedAt', 'strategy']);
    // The recipe stays without --purge; the app is simply not installed any more.
    assert.ok(await exists(join(w.home.appsDir, app, `${app}.yml`)));
    const list = await w.cli(['--json', 'list']);
    assert.equal(list.code, 0, list.stderr);
  });

  void test('already-missing files are reported, not errors; a foreign file at the entry path is left alone', async () => {
    const w = await suite.world();
    const app = 'partial';
    await w.recipe(app);
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    assert.equal((await w.update()).code, 0);
    const file = join(w.storageDir, `${app}.AppImage`);
    const desktop = join(w.applicationsDir, `${app}.desktop`);
    const icon = join(w.hicolorDir, '256x256', 'apps', `appimage-keeper-${app}.png`);
    await rm(file);
    // The user replaced our entry with their own (no mark): it is theirs now.
    await writeFile(desktop, '[Desktop Entry]\nType=Application\nName=Mine\nExec=/usr/bin/true\n');

    const r = await w.cli(['remove', app]);
    assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /^removed partial$/m);
    assert.match(r.stdout, new RegExp(`already gone: ${file}`));
    assert.match(r.stdout, new RegExp(`left alone \\(not ours\\): ${desktop}`));
    assert.match(r.stdout, new RegExp(`removed ${icon}`));
    assert.equal(
      await readFile(desktop, 'utf8'),
      '[Desktop Entry]\nType=Application\nName=Mine\nExec=/usr/bin/true\n',
    );
    assert.equal(await exists(icon), false);
    assert.equal((await w.state()).apps[app]?.installed, undefined);

    // Nothing left to remove, and it says so.
    const again = await w.remove([app]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(appOf(again, app).removed, []);
    assert.equal(appOf(again, app).status, 'not_installed');
  });

  void test('--purge removes the recipe folder (folder layout) or the recipe file (flat layout)', async () => {
    const w = await suite.world();
    await w.recipe('foldered');
    await writeFile(join(w.home.appsDir, 'foldered', 'notes.txt'), 'user notes beside the recipe\n');
    await w.recipe('flat', [], 'flat');
    await w.recipe('neighbour');
    publishHubRelease(suite.sim, 'foldered', '1.0', await fixtureAppImage('foldered', '1.0'));
    publishHubRelease(suite.sim, 'flat', '1.0', await fixtureAppImage('flat', '1.0'));
    publishHubRelease(suite.sim, 'neighbour', '1.0', await fixtureAppImage('neighbour', '1.0'));
    assert.equal((await w.update()).code, 0);

    const r = await w.remove(['foldered', 'flat', '--purge']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(appOf(r, 'foldered').purged_recipe, join(w.home.appsDir, 'foldered'));
    assert.equal(appOf(r, 'flat').purged_recipe, join(w.home.appsDir, 'flat.yml'));
    assert.deepEqual(await listDir(w.home.appsDir), ['neighbour']);
    assert.deepEqual(await listDir(w.storageDir), ['.appimage-keeper-owners', 'neighbour.AppImage']);
    // The owner records of removed files went with them.
    assert.deepEqual(await listDir(join(w.storageDir, '.appimage-keeper-owners')), [
      'neighbour.AppImage.owner',
    ]);
    assert.deepEqual(await listDir(w.applicationsDir), ['neighbour.desktop']);
    const st = await w.state();
    assert.deepEqual(Object.keys(st.apps), ['neighbour']);
    // The purged apps are unknown now: validate and update no longer see them.
    const u = await w.update(['--show-all']);
    assert.deepEqual(
      u.json?.apps.map((a) => a.name),
      ['neighbour'],
    );
  });

  void test("--purge keeps a folder that holds another app's recipe (recipes may share folders)", async () => {
    const w = await suite.world();
    const group = join(w.home.appsDir, 'group');
    await mkdir(group, { recursive: true });
    for (const app of ['first', 'second']) {
      await writeFile(
        join(group, `${app}.yml`),
        `name: ${app}\nstrategy:\n  strategy: forge\n  repository: ${suite.sim.url}/e2e/${app}\n`,
      );
    }
    const r = await w.remove(['first', '--purge']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(appOf(r, 'first').purged_recipe, join(group, 'first.yml'));
    assert.deepEqual(await listDir(group), ['second.yml']);
    const again = await w.remove(['second', '--purge']);
    assert.equal(appOf(again, 'second').purged_recipe, group);
    assert.deepEqual(await listDir(w.home.appsDir), []);
  });

  void test('--orphans removes installed apps whose recipe is gone and leftover temp files', async () => {
    const w = await suite.world();
    await w.recipe('keep');
    await w.recipe('orphan');
    publishHubRelease(suite.sim, 'keep', '1.0', await fixtureAppImage('keep', '1.0'));
    publishHubRelease(suite.sim, 'orphan', '1.0', await fixtureAppImage('orphan', '1.0'));
    assert.equal((await w.update()).code, 0);
    await rm(join(w.home.appsDir, 'orphan'), { recursive: true });
    const boot = await bootTag();
    // Left by a killed run (its pid is gone), by an earlier version, and one a live process is
    // writing (another config dir sharing this storage_dir): only the first two are stray.
    const temp = join(w.storageDir, `.appimage-keeper~keep~${deadPid()}.${boot}.0123456789ab.part`);
    const legacy = join(w.storageDir, '.appimage-keeper-keep-0123456789ab.part');
    const live = `.appimage-keeper~keep~${process.ppid}.${boot}.0123456789ab.part`;
    await writeFile(temp, 'half a download');
    await writeFile(legacy, 'half a download');
    await writeFile(join(w.storageDir, live), 'a download in progress');
    const userFile = join(w.storageDir, 'Other.AppImage');
    await writeFile(userFile, 'an AppImage the user put here');

    const r = await w.remove(['--orphans']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.json?.apps.map((a) => a.name),
      ['orphan'],
    );
    assert.ok(appOf(r, 'orphan').removed.includes(join(w.storageDir, 'orphan.AppImage')));
    assert.deepEqual([...(r.json?.temp_files_removed ?? [])].sort(), [temp, legacy].sort());
    assert.deepEqual(
      await listDir(w.storageDir),
      ['.appimage-keeper-owners', live, 'Other.AppImage', 'keep.AppImage'].sort(),
    );
    await rm(join(w.storageDir, live));
    assert.deepEqual(await listDir(w.applicationsDir), ['keep.desktop']);
    assert.deepEqual(Object.keys((await w.state()).apps), ['keep']);

    const none = await w.cli(['remove', '--orphans']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /no orphans found/);
  });

  void test('an unknown app exits 2 and removes nothing', async () => {
    const w = await suite.world();
    await w.recipe('known');
    publishHubRelease(suite.sim, 'known', '1.0', await fixtureAppImage('known', '1.0'));
    assert.equal((await w.update()).code, 0);
    const before = await snapshotTree(w.home.root, [w.storageDir, w.home.dataHome, w.home.stateDir]);
    const r = await w.remove(['known', 'nosuchapp']);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(r.json?.error?.code, 'UNKNOWN_APP');
    assert.match(r.json?.error?.message ?? '', /nosuchapp/);
    assert.deepEqual(
      await snapshotTree(w.home.root, [w.storageDir, w.home.dataHome, w.home.stateDir]),
      before,
    );
    const human = await w.cli(['remove', 'nosuchapp']);
    assert.equal(human.code, 2);
    assert.match(human.stderr, /unknown app: nosuchapp/);
  });

  void test('remove respects the lock held by another live run (exit 3, nothing removed)', async () => {
    const w = await suite.world();
    await w.recipe('locked');
    publishHubRelease(suite.sim, 'locked', '1.0', await fixtureAppImage('locked', '1.0'));
    assert.equal((await w.update()).code, 0);
    const lockFile = join(w.home.stateDir, 'lock');
    // This test process is alive, so the lock it "holds" is not stale.
    const owner = {
      pid: process.pid,
      bootId: await bootId(),
      command: 'update',
      startedAt: new Date().toISOString(),
    };
    await writeFile(lockFile, JSON.stringify(owner));
    const before = await snapshotTree(w.home.root, [w.storageDir, w.home.dataHome]);
    const r = await w.remove(['locked']);
    assert.equal(r.code, 3, r.stdout);
    assert.match(r.json?.error?.message ?? '', new RegExp(`pid ${process.pid}`));
    assert.deepEqual(await snapshotTree(w.home.root, [w.storageDir, w.home.dataHome]), before);
    assert.ok((await w.state()).apps.locked?.installed);
    await rm(lockFile);
    const ok = await w.remove(['locked']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(await exists(join(w.storageDir, 'locked.AppImage')), false);
  });
});

void describe('update then remove leaves the user data directories as they were', () => {
  const userData = {
    'applications/firefox.desktop': '[Desktop Entry]\nType=Application\nName=Firefox\nExec=firefox %u\n',
    'applications/defaults.list': '[Default Applications]\ntext/html=firefox.desktop\n',
    'icons/hicolor/256x256/apps/firefox.png': 'user icon bytes',
    'icons/hicolor/48x48/apps/other.png': 'another user icon',
    'fonts/MyFont.ttf': 'font bytes',
  };

  void test('with pre-existing directories: identical listing, sizes and hashes afterwards', async () => {
    const w = await suite.world(['create_symlinks: true']);
    await seedUserFiles(w.home.dataHome, userData);
    await seedUserFiles(w.storageDir, { 'Manual-1.0.AppImage': 'installed by hand', 'README.txt': 'mine' });
    await seedUserFiles(w.symlinkDir, { 'my-script': '#!/bin/sh\necho hi\n' });
    const dirs = [w.home.dataHome, w.storageDir, w.symlinkDir];
    const before = await snapshotTree(w.home.root, dirs);

    await w.recipe('tidy');
    await w.recipe('svgapp');
    publishHubRelease(suite.sim, 'svgapp', '1.0', await fixtureAppImage('svgapp', '1.0', { icon: 'svg' }));
    await installTwice(w, 'tidy');
    assert.equal((await w.update(['svgapp'])).code, 0);
    assert.ok(await exists(join(w.hicolorDir, 'scalable', 'apps', 'appimage-keeper-svgapp.svg')));
    assert.notDeepEqual(await snapshotTree(w.home.root, dirs), before);

    const r = await w.remove(['tidy', 'svgapp']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await snapshotTree(w.home.root, dirs), before);
  });

  void test('from nothing: only the base directories remain, every one of them empty', async () => {
    const w = await suite.world(['create_symlinks: true']);
    await rm(w.home.dataHome, { recursive: true, force: true });
    await w.recipe('fresh');
    await installTwice(w, 'fresh');
    const r = await w.remove(['fresh']);
    assert.equal(r.code, 0, r.stderr);
    // Documented in docs/remove.md: the standard base directories are kept (other tools use them).
    assert.deepEqual(await snapshotTree(w.home.root, [w.home.dataHome, w.storageDir, w.symlinkDir]), [
      'dir  data',
      'dir  data/applications',
      'dir  data/icons',
      'dir  data/icons/hicolor',
      'dir  storage',
      'dir  bin',
    ]);
  });

  void test('an app whose entry declares MimeType: the MIME cache we caused is refreshed, not left naming us', async () => {
    const w = await suite.world();
    await mkdir(w.applicationsDir, { recursive: true });
    const mimeDesktop = [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Mime',
      'Exec=mime %f',
      'Icon=mime',
      'MimeType=text/x-mimeapp;',
      '',
    ].join('\n');
    await w.recipe('mime');
    publishHubRelease(
      suite.sim,
      'mime',
      '1.0',
      await fixtureAppImage('mime', '1.0', { desktop: mimeDesktop }),
    );
    assert.equal((await w.update()).code, 0);
    const cache = join(w.applicationsDir, 'mimeinfo.cache');
    assert.match(await readFile(cache, 'utf8'), /text\/x-mimeapp=mime\.desktop;/);
    assert.equal((await w.remove(['mime'])).code, 0);
    assert.doesNotMatch(await readFile(cache, 'utf8').catch(() => ''), /mime\.desktop/);
  });
});
