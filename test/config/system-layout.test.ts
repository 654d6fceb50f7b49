import assert from 'node:assert/strict';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { resolvePaths } from '../../src/config/paths.js';
import { effectiveGlobal } from '../../src/config/settings.js';
import { starterConfig } from '../../src/config/templates.js';
import { requestedLayout } from '../../src/cli/system-mode.js';
import { loadWorkspace } from '../../src/config/workspace.js';
import { KeeperError } from '../../src/core/errors.js';
import { makeTmpHome } from '../helpers/tmp-home.js';
import { directRecipe, failedApp, okApp } from './workspace-fixture.js';

// The per-user variables of whoever runs `sudo` must not move what every account runs.
const ENV = {
  HOME: '/root',
  XDG_CONFIG_HOME: '/x/conf',
  XDG_STATE_HOME: '/x/state',
  XDG_DATA_HOME: '/x/data',
  XDG_CACHE_HOME: '/x/cache',
  XDG_DATA_DIRS: '/x/dirs',
};

void describe('system layout', () => {
  void test('FHS folders whatever the XDG variables; a --config-dir gets its own state profile', () => {
    const p = resolvePaths(ENV, undefined, 'system');
    assert.equal(p.layout, 'system');
    assert.equal(p.configFile, '/etc/appimage-keeper/config.yml');
    assert.equal(p.secretsFile, '/etc/appimage-keeper/secrets.yml');
    assert.equal(p.appsDir, '/etc/appimage-keeper/apps');
    assert.equal(p.stateFile, '/var/lib/appimage-keeper/state.json');
    assert.equal(p.cacheDir, '/var/cache/appimage-keeper');
    assert.equal(p.applicationsDir, '/usr/local/share/applications');
    assert.equal(p.iconsDir, '/usr/local/share/icons');
    assert.deepEqual(p.dataDirs, ['/usr/share']);
    const other = resolvePaths(ENV, '/srv/ak', 'system');
    assert.match(other.stateDir, /^\/var\/lib\/appimage-keeper\/profiles\/srv-ak-[0-9a-f]{8}$/);
    // The per-user layout is unchanged.
    assert.equal(resolvePaths(ENV).stateDir, '/x/state/appimage-keeper');
    assert.deepEqual(resolvePaths(ENV).fieldDefaults, {});
  });

  void test('storage_dir and symlink_dir default to /opt/appimages and /usr/local/bin; config.yml wins', () => {
    const p = resolvePaths(ENV, undefined, 'system');
    const g = effectiveGlobal({}, p, ENV);
    assert.equal(g.storage_dir, '/opt/appimages');
    assert.equal(g.symlink_dir, '/usr/local/bin');
    const set = effectiveGlobal({ storage_dir: '/srv/apps', symlink_dir: 'bin' }, p, ENV);
    assert.equal(set.storage_dir, '/srv/apps');
    assert.equal(set.symlink_dir, '/etc/appimage-keeper/bin');
    assert.equal(effectiveGlobal({}, resolvePaths(ENV), ENV).storage_dir, '/root/.local/bin/AppImages');
  });

  void test('init --global writes the layout defaults into the starter config.yml', () => {
    const text = starterConfig(resolvePaths(ENV, undefined, 'system').fieldDefaults);
    assert.match(text, /^storage_dir: \/opt\/appimages$/m);
    assert.match(text, /^symlink_dir: \/usr\/local\/bin$/m);
    assert.match(starterConfig(), /^storage_dir: ~\/.local\/bin\/AppImages$/m);
  });

  void test('APPIMAGE_KEEPER_SYSTEM: 1 asks for it, 0 or unset not, anything else is a usage error', () => {
    assert.equal(requestedLayout(false, { APPIMAGE_KEEPER_SYSTEM: '1' }), 'system');
    assert.equal(requestedLayout(false, { APPIMAGE_KEEPER_SYSTEM: '0' }), 'user');
    assert.equal(requestedLayout(false, {}), 'user');
    assert.equal(requestedLayout(true, { APPIMAGE_KEEPER_SYSTEM: '0' }), 'system');
    assert.throws(
      () => requestedLayout(false, { APPIMAGE_KEEPER_SYSTEM: 'yes' }),
      (e: unknown) => e instanceof KeeperError && e.code === 'SYSTEM_ENV_INVALID' && e.exitCode === 2,
    );
  });

  void test('a recipe linked from a folder others can write is refused before it is read (system only)', async () => {
    const h = await makeTmpHome();
    try {
      const shared = join(h.root, 'shared');
      await mkdir(shared);
      await chmod(shared, 0o777);
      await writeFile(join(shared, 'evil.yml'), directRecipe('evil'));
      await mkdir(h.appsDir, { recursive: true });
      await symlink(join(shared, 'evil.yml'), join(h.appsDir, 'evil.yml'));
      const ws = await loadWorkspace(resolvePaths(h.env, h.configDir, 'system'), h.env);
      const evil = failedApp(ws, 'evil');
      assert.equal(evil.error.code, 'SYSTEM_CONFIG_UNSAFE');
      assert.ok(evil.error.hint?.includes(`chmod go-w ${shared}`), evil.error.hint);
      assert.ok(
        ws.notRootOnly.some((f) => f.path === shared && /writable by everyone \(mode 777\)/.test(f.problem)),
        JSON.stringify(ws.notRootOnly),
      );
      // Per-user, the same recipe is the user's own.
      const mine = await loadWorkspace(resolvePaths(h.env, h.configDir), h.env);
      assert.equal(okApp(mine, 'evil').name, 'evil');
      assert.deepEqual(mine.notRootOnly, []);
    } finally {
      await h.cleanup();
    }
  });
});
