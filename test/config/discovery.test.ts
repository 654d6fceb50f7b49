import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { discoverRecipes } from '../../src/config/discover.js';
import { selectApps } from '../../src/config/workspace.js';
import { UsageError } from '../../src/core/errors.js';
import { directRecipe, failedApp, load, okApp, withHome } from './workspace-fixture.js';

async function put(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
}

void describe('recipe discovery', () => {
  void test('a missing apps/ directory means no recipes', () =>
    withHome(async (h) => {
      assert.deepEqual(discoverRecipes(h.appsDir), []);
      assert.deepEqual((await load(h)).apps, []);
    }));

  void test('every *.yml and *.yaml below apps/ is a recipe (apps/hayase/main.yml too); hidden names are skipped', () =>
    withHome(async (h) => {
      await put(join(h.appsDir, 'folder', 'folder.yml'), directRecipe('folder'));
      await put(join(h.appsDir, 'hayase', 'main.yml'), directRecipe('hayase'));
      await put(join(h.appsDir, 'longext', 'longext.YAML'), directRecipe('longext'));
      await put(join(h.appsDir, 'flat.yml'), directRecipe('flat'));
      await put(join(h.appsDir, 'nested', 'deeper', 'deeper.yml'), directRecipe('deeper'));
      await put(join(h.appsDir, 'folder', 'data.yml'), 'not: a recipe\n');
      await put(join(h.appsDir, '.hidden.yml'), directRecipe('hidden'));
      await put(join(h.appsDir, '.git', 'x.yml'), directRecipe('git'));
      await put(join(h.appsDir, 'README.md'), '# notes\n');
      await put(join(h.appsDir, 'folder', 'resolver.sh'), '#!/bin/bash\n');

      const found = discoverRecipes(h.appsDir);
      assert.deepEqual(
        found.map((r) => [r.id, r.layout, r.file.slice(h.appsDir.length + 1)]),
        [
          ['flat', 'flat', 'flat.yml'],
          ['data', 'folder', 'folder/data.yml'],
          ['folder', 'folder', 'folder/folder.yml'],
          ['main', 'folder', 'hayase/main.yml'],
          ['longext', 'folder', 'longext/longext.YAML'],
          ['deeper', 'folder', 'nested/deeper/deeper.yml'],
        ],
      );
      assert.equal(found.find((r) => r.id === 'main')?.dir, join(h.appsDir, 'hayase'));
      assert.equal(found.find((r) => r.id === 'flat')?.dir, h.appsDir);

      // A YAML file that is not a recipe is reported, never ignored silently.
      const ws = await load(h);
      assert.deepEqual(
        ws.apps.map((a) => [a.name, a.ok]),
        [
          ['data', false],
          ['deeper', true],
          ['flat', true],
          ['folder', true],
          ['hayase', true],
          ['longext', true],
        ],
      );
    }));

  void test('a symlink loop and broken links are reported as not read', () =>
    withHome(async (h) => {
      await put(join(h.appsDir, 'a', 'a.yml'), directRecipe('a'));
      await symlink('..', join(h.appsDir, 'a', 'loop'));
      await symlink('nowhere.yml', join(h.appsDir, 'broken.yml'));
      const ws = await load(h);
      assert.deepEqual(
        ws.apps.map((a) => [a.name, a.ok]),
        [['a', true]],
      );
      assert.deepEqual(
        ws.skipped.map((s) => [s.path.slice(h.appsDir.length + 1), s.reason]),
        [
          ['a/loop', 'folder already searched (symlink loop)'],
          ['broken.yml', 'broken link or unreadable'],
        ],
      );
    }));

  void test('an invalid recipe is known by its name: field, not its file stem', () =>
    withHome(async (h) => {
      await put(join(h.appsDir, 'hayase', 'main.yml'), 'name: hayase\nstrategy:\n  strategy: nope\n');
      const ws = await load(h);
      assert.equal(failedApp(ws, 'hayase').file, join(h.appsDir, 'hayase', 'main.yml'));
    }));

  void test('the name field, not the file name, names the app', () =>
    withHome(async (h) => {
      await h.writeRecipe('file-stem', directRecipe('RealName'));
      const ws = await load(h);
      assert.equal(okApp(ws, 'RealName').recipeFile, join(h.appsDir, 'file-stem', 'file-stem.yml'));
    }));

  void test('ignore: true keeps the app listed and marks it ignored', () =>
    withHome(async (h) => {
      await h.writeRecipe('skipped', directRecipe('skipped', { ignore: true }));
      await h.writeRecipe('active', directRecipe('active', { ignore: false }));
      const ws = await load(h);
      assert.equal(okApp(ws, 'skipped').ignore, true);
      assert.equal(okApp(ws, 'active').ignore, false);
    }));

  void test('duplicate names (case-insensitive) fail both apps; the others still load', () =>
    withHome(async (h) => {
      await h.writeRecipe('one', directRecipe('Tool'));
      await h.writeRecipe('two', directRecipe('tool'), 'flat');
      await h.writeRecipe('fine', directRecipe('fine'));
      const ws = await load(h);
      assert.equal(ws.apps.length, 3);
      const upper = ws.apps.find((a) => a.name === 'Tool');
      const lower = ws.apps.find((a) => a.name === 'tool');
      for (const dup of [upper, lower]) {
        assert.ok(dup && !dup.ok);
        assert.equal(dup.error.code, 'RECIPE_DUPLICATE');
      }
      assert.ok(upper && !upper.ok && upper.error.message.includes(join(h.appsDir, 'two.yml')));
      assert.ok(lower && !lower.ok && lower.error.message.includes(join(h.appsDir, 'one', 'one.yml')));
      okApp(ws, 'fine');
    }));

  void test('the same app in both layouts, or as .yml and .yaml, is a duplicate', () =>
    withHome(async (h) => {
      await h.writeRecipe('same', directRecipe('same'));
      await h.writeRecipe('same', directRecipe('same'), 'flat');
      await put(join(h.appsDir, 'twice', 'twice.yml'), directRecipe('twice'));
      await put(join(h.appsDir, 'twice', 'twice.yaml'), directRecipe('twice'));
      const ws = await load(h);
      assert.equal(ws.apps.length, 4);
      assert.ok(ws.apps.every((a) => !a.ok && a.error.code === 'RECIPE_DUPLICATE'));
    }));

  void test('two apps whose naming_format gives the same file are duplicates', () =>
    withHome(async (h) => {
      await h.writeRecipe('a', directRecipe('a', { naming_format: '{name}.AppImage' }));
      await h.writeRecipe('b', directRecipe('b', { naming_format: 'a.AppImage{name}' }));
      await h.writeRecipe('c', directRecipe('c', { storage_dir: '/srv/c', naming_format: '{name}' }));
      const ws = await load(h);
      okApp(ws, 'a');
      okApp(ws, 'b');
      okApp(ws, 'c');

      await h.writeRecipe('d', directRecipe('d', { storage_dir: '/srv/x', naming_format: 'x{name}' }));
      await h.writeRecipe('xd', directRecipe('xd', { storage_dir: '/srv/x', naming_format: '{name}' }));
      const ws2 = await load(h);
      assert.equal(failedApp(ws2, 'd').error.code, 'RECIPE_DUPLICATE');
      assert.equal(failedApp(ws2, 'xd').error.code, 'RECIPE_DUPLICATE');
    }));

  void test('a broken recipe fails only that app', () =>
    withHome(async (h) => {
      await h.writeRecipe('broken', 'name: broken\nstrategy: [\n');
      await h.writeRecipe('good', directRecipe('good'));
      const ws = await load(h);
      assert.equal(failedApp(ws, 'broken').error.code, 'CONFIG_INVALID');
      okApp(ws, 'good');
    }));

  void test('selecting apps by name: known names pick them, an unknown one is a usage error', () =>
    withHome(async (h) => {
      await h.writeRecipe('a', directRecipe('a'));
      await h.writeRecipe('b', directRecipe('b'));
      const ws = await load(h);
      assert.deepEqual(
        selectApps(ws, ['b']).map((a) => a.name),
        ['b'],
      );
      assert.equal(selectApps(ws, []).length, 2);
      assert.throws(
        () => selectApps(ws, ['a', 'nope']),
        (e: unknown) => e instanceof UsageError && e.code === 'UNKNOWN_APP' && /nope/.test(e.message),
      );
    }));
});
