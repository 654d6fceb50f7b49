import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { expandHome, resolvePaths } from '../../src/config/paths.js';
import { makeTmpHome } from '../helpers/tmp-home.js';
import { directRecipe, load, okApp } from './workspace-fixture.js';

void describe('paths', () => {
  void test('XDG variables place config, state, data and cache; relative values are ignored', () => {
    const env = {
      HOME: '/home/u',
      XDG_CONFIG_HOME: '/x/conf',
      XDG_STATE_HOME: '/x/state',
      XDG_DATA_HOME: '/x/data',
      XDG_CACHE_HOME: '/x/cache',
    };
    const p = resolvePaths(env);
    assert.equal(p.configDir, '/x/conf/appimage-keeper');
    assert.equal(p.configFile, '/x/conf/appimage-keeper/config.yml');
    assert.equal(p.secretsFile, '/x/conf/appimage-keeper/secrets.yml');
    assert.equal(p.appsDir, '/x/conf/appimage-keeper/apps');
    assert.equal(p.stateDir, '/x/state/appimage-keeper');
    assert.equal(p.stateFile, '/x/state/appimage-keeper/state.json');
    assert.equal(p.lockFile, '/x/state/appimage-keeper/lock');
    assert.equal(p.cacheDir, '/x/cache/appimage-keeper');
    assert.equal(p.applicationsDir, '/x/data/applications');
    assert.equal(p.iconsDir, '/x/data/icons');

    const relative = resolvePaths({
      HOME: '/home/u',
      XDG_CONFIG_HOME: 'conf',
      XDG_STATE_HOME: './state',
      XDG_DATA_HOME: 'data',
      XDG_CACHE_HOME: '~/cache',
    });
    assert.equal(relative.configDir, '/home/u/.config/appimage-keeper');
    assert.equal(relative.stateDir, '/home/u/.local/state/appimage-keeper');
    assert.equal(relative.dataHome, '/home/u/.local/share');
    assert.equal(relative.cacheDir, '/home/u/.cache/appimage-keeper');
  });

  void test('--config-dir gets its own state dir (and lock), stable per directory', () => {
    const env = { HOME: '/home/u', XDG_STATE_HOME: '/x/state' };
    const def = resolvePaths(env);
    const a = resolvePaths(env, '/dots/appimage-keeper');
    const b = resolvePaths(env, '/other/appimage-keeper');
    assert.equal(a.configDir, '/dots/appimage-keeper');
    assert.equal(a.appsDir, '/dots/appimage-keeper/apps');
    assert.notEqual(a.stateDir, def.stateDir);
    assert.notEqual(a.stateDir, b.stateDir);
    assert.notEqual(a.lockFile, def.lockFile);
    assert.notEqual(a.lockFile, b.lockFile);
    assert.ok(a.stateDir.startsWith('/x/state/appimage-keeper/'), a.stateDir);
    assert.equal(resolvePaths(env, '/dots/appimage-keeper').stateDir, a.stateDir);
    // Naming the default directory explicitly is the same profile as not naming it.
    assert.equal(resolvePaths(env, def.configDir).stateDir, def.stateDir);
  });

  void test('--config-dir expands ~ and resolves relative to the working directory', () => {
    const env = { HOME: '/home/u' };
    assert.equal(resolvePaths(env, '~/dots/ak').configDir, '/home/u/dots/ak');
    assert.equal(resolvePaths(env, 'rel/ak').configDir, join(process.cwd(), 'rel/ak'));
  });

  void test('expandHome handles ~, ~/x, $HOME and ${HOME} but not ~user or $HOMEX', () => {
    const env = { HOME: '/home/u' };
    assert.equal(expandHome('~', env), '/home/u');
    assert.equal(expandHome('~/Apps', env), '/home/u/Apps');
    assert.equal(expandHome('$HOME/Apps', env), '/home/u/Apps');
    assert.equal(expandHome('${HOME}/Apps', env), '/home/u/Apps');
    assert.equal(expandHome('~other/Apps', env), '~other/Apps');
    assert.equal(expandHome('$HOMEX/Apps', env), '$HOMEX/Apps');
    assert.equal(expandHome('/abs/~/x', env), '/abs/~/x');
  });

  void test('path fields expand ~ and $HOME; relative ones resolve against the file that set them', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeConfig('storage_dir: ~/Apps\nsymlink_dir: bin\n');
      await h.writeRecipe('tilde', directRecipe('tilde'));
      await h.writeRecipe(
        'home',
        directRecipe('home', { storage_dir: '$HOME/Other', symlink_dir: '${HOME}/b' }),
      );
      await h.writeRecipe('rel', directRecipe('rel', { storage_dir: 'store', symlink_dir: '../links' }));
      await h.writeRecipe('flat', directRecipe('flat', { storage_dir: 'store' }), 'flat');
      const ws = await load(h);
      assert.equal(ws.global.storage_dir, join(h.home, 'Apps'));
      assert.equal(ws.global.symlink_dir, join(h.configDir, 'bin'));
      assert.equal(okApp(ws, 'tilde').storage_dir, join(h.home, 'Apps'));
      assert.equal(okApp(ws, 'tilde').symlink_dir, join(h.configDir, 'bin'));
      assert.equal(okApp(ws, 'home').storage_dir, join(h.home, 'Other'));
      assert.equal(okApp(ws, 'home').symlink_dir, join(h.home, 'b'));
      assert.equal(okApp(ws, 'rel').storage_dir, join(h.appsDir, 'rel', 'store'));
      assert.equal(okApp(ws, 'rel').symlink_dir, join(h.appsDir, 'links'));
      assert.equal(okApp(ws, 'flat').storage_dir, join(h.appsDir, 'store'));
    } finally {
      await h.cleanup();
    }
  });

  void test('a relative script_path resolves against the recipe folder', async () => {
    const h = await makeTmpHome();
    try {
      await mkdir(join(h.appsDir, 'scripted', 'bin'), { recursive: true });
      await writeFile(join(h.appsDir, 'scripted', 'bin', 'resolve.sh'), '#!/bin/bash\n', { mode: 0o755 });
      await h.writeRecipe(
        'scripted',
        'name: scripted\nstrategy:\n  strategy: script\n  script_path: bin/resolve.sh\n  timeout: 5\n',
      );
      const app = okApp(await load(h), 'scripted');
      assert.deepEqual(app.strategy, {
        strategy: 'script',
        script_path: join(h.appsDir, 'scripted', 'bin', 'resolve.sh'),
        timeout: 5,
      });
      assert.equal(app.recipeDir, join(h.appsDir, 'scripted'));
      assert.equal(app.recipeFile, join(h.appsDir, 'scripted', 'scripted.yml'));
    } finally {
      await h.cleanup();
    }
  });

  void test('loading with --config-dir reads that directory and the default one is not consulted', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeRecipe('default-app', directRecipe('default-app'));
      const other = join(h.root, 'dots');
      await mkdir(join(other, 'apps'), { recursive: true });
      await writeFile(join(other, 'apps', 'mine.yml'), directRecipe('mine'));
      await writeFile(join(other, 'config.yml'), 'show_all: true\n');
      const ws = await load(h, h.env, other);
      assert.deepEqual(
        ws.apps.map((a) => a.name),
        ['mine'],
      );
      assert.equal(ws.global.show_all, true);
      assert.notEqual(ws.paths.stateDir, h.stateDir);
    } finally {
      await h.cleanup();
    }
  });
});
