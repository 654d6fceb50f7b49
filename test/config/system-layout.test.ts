import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolvePaths } from '../../src/config/paths.js';
import { effectiveGlobal } from '../../src/config/settings.js';
import { starterConfig } from '../../src/config/templates.js';
import { requestedLayout } from '../../src/cli/system-mode.js';
import { KeeperError } from '../../src/core/errors.js';

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
});
