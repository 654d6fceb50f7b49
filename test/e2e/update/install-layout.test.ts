// Where files land: naming_format with {version} (the new file appears before the old one goes),
// keep_previous, and symlinks (replaced atomically; a file or link we did not make is never touched).
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { lstat, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { publish, waitFor, type World, useUpdateSuite } from './harness.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';

const PREVIOUS = '.appimage-keeper-previous';
const OWNERS = '.appimage-keeper-owners';

void describe('update: file names, previous version and symlinks', { concurrency: true }, () => {
  const suite = useUpdateSuite();

  /** A world with `app` at v1 installed by a real update. */
  async function installedV1(app: string, recipeExtra: string, globalExtra = ''): Promise<World> {
    const w = await suite.world(`manage_desktop_files: false\n${globalExtra}`);
    await w.forgeRecipe(app, recipeExtra);
    await publish(suite.sim, app, '1.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(appOf(run, app).status, 'updated');
    return w;
  }

  void test('naming_format {version}: v2 gets its own name, v1 is removed only after v2 is in place', async () => {
    const w = await installedV1('named', 'naming_format: "{name}-{version}.AppImage"\nkeep_previous: false');
    assert.deepEqual((await readdir(w.storageDir)).sort(), [OWNERS, 'named-1.0.0.AppImage']);
    await publish(suite.sim, 'named', '2.0.0');
    // inotify reports the directory's changes in order: the new name must show up before the old one goes.
    const seen: string[] = [];
    const watcher = watch(w.storageDir, (_event, name) => {
      if (name) seen.push(name);
    });
    try {
      const run = await w.update();
      assert.equal(run.code, 0, run.stderr);
      assert.equal(appOf(run, 'named').path, join(w.storageDir, 'named-2.0.0.AppImage'));
      await waitFor('inotify events of both names', () =>
        Promise.resolve(
          seen.includes('named-1.0.0.AppImage') && seen.includes('named-2.0.0.AppImage') ? true : undefined,
        ),
      );
    } finally {
      watcher.close();
    }
    const appeared = seen.indexOf('named-2.0.0.AppImage');
    const removed = seen.lastIndexOf('named-1.0.0.AppImage');
    assert.ok(appeared >= 0 && removed > appeared, `events in order: ${seen.join(', ')}`);
    assert.deepEqual((await readdir(w.storageDir)).sort(), [OWNERS, 'named-2.0.0.AppImage']);
    // v1's owner record went with it.
    assert.deepEqual(await readdir(join(w.storageDir, OWNERS)), ['named-2.0.0.AppImage.owner']);
    assert.equal(await execInstalled(join(w.storageDir, 'named-2.0.0.AppImage')), 'named 2.0.0');
    assert.equal((await w.state()).apps.named?.previous, undefined);
  });

  void test('keep_previous: the replaced version is kept under .appimage-keeper-previous/', async () => {
    const w = await installedV1('kept', 'naming_format: "{name}-{version}.AppImage"\nkeep_previous: true');
    await publish(suite.sim, 'kept', '2.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual((await readdir(w.storageDir)).sort(), [OWNERS, PREVIOUS, 'kept-2.0.0.AppImage']);
    const previous = join(w.storageDir, PREVIOUS, 'kept.AppImage');
    assert.equal(await execInstalled(previous), 'kept 1.0.0');
    const state = await w.state();
    assert.equal(state.apps.kept?.previous?.version, '1.0.0');
    assert.equal(state.apps.kept?.previous?.file, previous);
    assert.equal(await execInstalled(join(w.storageDir, 'kept-2.0.0.AppImage')), 'kept 2.0.0');
  });

  void test('create_symlinks: the link follows the new file and is swapped by rename', async () => {
    const w = await installedV1(
      'linked',
      'naming_format: "{name}-{version}.AppImage"\ncreate_symlinks: true',
    );
    const link = join(w.symlinkDir, 'linked');
    assert.equal(await readlink(link), join(w.storageDir, 'linked-1.0.0.AppImage'));
    await publish(suite.sim, 'linked', '2.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(appOf(run, 'linked').warnings, []);
    assert.ok((await lstat(link)).isSymbolicLink());
    assert.equal(await readlink(link), join(w.storageDir, 'linked-2.0.0.AppImage'));
    assert.equal(await execInstalled(link), 'linked 2.0.0');
    // No temp link left next to it.
    assert.deepEqual(await readdir(w.symlinkDir), ['linked']);
    assert.equal((await w.state()).apps.linked?.symlink, link);
  });

  // create_symlinks turned off after a link was made: our recorded link must not be left pointing
  // at the replaced (deleted) file; rollback already re-pointed it, update now does the same.
  void test('create_symlinks turned off: the link state records as ours follows the new file, none is created', async () => {
    const w = await installedV1(
      'unlinked',
      'naming_format: "{name}-{version}.AppImage"\ncreate_symlinks: true',
    );
    const link = join(w.symlinkDir, 'unlinked');
    await w.forgeRecipe('unlinked', 'naming_format: "{name}-{version}.AppImage"\ncreate_symlinks: false');
    await publish(suite.sim, 'unlinked', '2.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(appOf(run, 'unlinked').warnings, []);
    assert.equal(await readlink(link), join(w.storageDir, 'unlinked-2.0.0.AppImage'));
    assert.equal(await execInstalled(link), 'unlinked 2.0.0');
    // The user removes the link: with the setting off, no run brings it back.
    await rm(link);
    await publish(suite.sim, 'unlinked', '3.0.0');
    const again = await w.update();
    assert.equal(again.code, 0, again.stderr);
    assert.equal(appOf(again, 'unlinked').status, 'updated');
    assert.deepEqual(await readdir(w.symlinkDir), []);
  });

  void test('a foreign file or link at the symlink path is never overwritten: a warning instead', async () => {
    const w = await suite.world('manage_desktop_files: false\ncreate_symlinks: true');
    await mkdir(w.symlinkDir, { recursive: true });
    const fileAt = join(w.symlinkDir, 'squatted');
    await writeFile(fileAt, '#!/bin/sh\necho mine\n');
    const linkAt = join(w.symlinkDir, 'pointed');
    await symlink('/usr/bin/env', linkAt);
    await Promise.all([w.forgeRecipe('squatted'), w.forgeRecipe('pointed')]);
    await publish(suite.sim, 'squatted', '1.0.0');
    await publish(suite.sim, 'pointed', '1.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const app of ['squatted', 'pointed']) {
      const o = appOf(run, app);
      assert.equal(o.status, 'updated', 'the app itself is installed');
      assert.equal(o.warnings.length, 1, JSON.stringify(o.warnings));
      assert.match(o.warnings[0] ?? '', /not replacing it/);
    }
    assert.equal(await readFile(fileAt, 'utf8'), '#!/bin/sh\necho mine\n');
    assert.equal(await readlink(linkAt), '/usr/bin/env');
    const human = await w.cli(['update', '--force', 'squatted']);
    assert.equal(human.code, 0);
    assert.match(human.stdout + human.stderr, /warning:.*squatted exists and is not a symlink/);
  });
});
