import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import { GLOBAL_FIELDS } from '../../src/config/fields.js';
import { RECIPE_FIELDS } from '../../src/config/recipe-fields.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { directRecipe, load, okApp } from './workspace-fixture.js';

// For every global field: a config.yml value, a different recipe value, and what each becomes.
interface Sample {
  config: unknown;
  recipe: unknown;
  expectConfig?: unknown;
  expectRecipe?: unknown;
}
const SAMPLES: Record<string, Sample> = {
  storage_dir: { config: '/srv/apps', recipe: '/opt/one' },
  symlink_dir: { config: '/srv/bin', recipe: '/opt/bin' },
  naming_format: { config: '{name}-{version}.AppImage', recipe: 'x-{name}.AppImage' },
  manage_desktop_files: { config: false, recipe: true },
  create_symlinks: { config: true, recipe: false },
  segmented_downloads: { config: false, recipe: true },
  delta: { config: 'off', recipe: 'blockmap' },
  show_all: { config: true, recipe: false },
  respect_rate_limits: { config: false, recipe: true },
  hub_proxy: { config: false, recipe: true },
  hub_proxy_prefix: {
    config: 'https://proxy.one/',
    recipe: ['https://p2.example/', 'https://p3.example/'],
    expectConfig: ['https://proxy.one/'],
  },
  hub_token: { config: 'tok-config', recipe: 'tok-recipe' },
  hub_release_api_url: { config: 'https://api.hub.local', recipe: 'https://api2.hub.local' },
  hub_release_web_url: { config: 'https://hub.local', recipe: 'https://hub2.local' },
  lab_release_api_url: { config: 'https://lab.local/api/v4', recipe: 'https://lab2.local/api/v4' },
  lab_release_web_url: { config: 'https://lab.local', recipe: 'https://lab2.local' },
  download_connections: { config: 8, recipe: 2 },
  stall_timeout: { config: 5, recipe: 0.5 },
  min_rate: { config: 0, recipe: 2048 },
  app_timeout: { config: 600, recipe: 90 },
  notify: { config: true, recipe: false },
  keep_previous: { config: false, recipe: true },
  max_asset_size: { config: 1073741824, recipe: 8589934592 },
  provenance: { config: 'require', recipe: 'warn' },
  provenance_signer: {
    config: 'org/app/.github/workflows/release.yml',
    recipe: 'org/shared/.github/workflows/build.yaml',
  },
  release_attestation: { config: 'off', recipe: 'require' },
  signature: { config: 'off', recipe: 'require' },
  min_release_age: { config: '3d', recipe: 0, expectConfig: 259_200, expectRecipe: 0 },
  launch_fixes: { config: false, recipe: true },
  auto_self_update: { config: true, recipe: false },
  ca_file: { config: '/etc/ssl/corp-ca.pem', recipe: '/tmp/other-ca.pem' },
  https_proxy: { config: 'http://proxy.corp:3128', recipe: 'http://other:8080' },
  http_proxy: { config: 'http://proxy.corp:3128', recipe: 'http://other:8080' },
  no_proxy: { config: '.corp.lan,10.0.0.0/8', recipe: 'localhost' },
  catalogues: {
    config: ['https://a.example/feed.json', { url: 'https://b.example/apps.json', format: 'keeper' }],
    recipe: [],
  },
};

void describe('global fields: defaults, config.yml values and recipe overrides', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
  });
  after(async () => {
    await h.cleanup();
  });

  void test('the sample table covers every field of GLOBAL_FIELDS', () => {
    assert.deepEqual(Object.keys(SAMPLES).sort(), GLOBAL_FIELDS.map((f) => f.key).sort());
  });

  void test('without config.yml and without the field, every field has its documented default', async () => {
    await h.writeRecipe('plain', directRecipe('plain'));
    const ws = await load(h);
    assert.equal(ws.config.exists, false);
    const app = okApp(ws, 'plain');
    for (const f of GLOBAL_FIELDS) {
      let expected = f.default;
      if (f.key === 'storage_dir') expected = join(h.home, '.local/bin/AppImages');
      if (f.key === 'symlink_dir') expected = join(h.home, '.local/bin');
      assert.deepEqual(app[f.key], expected, f.key);
      assert.deepEqual(ws.global[f.key], expected, `global ${f.key}`);
    }
    assert.equal(app.token, undefined);
  });

  for (const f of GLOBAL_FIELDS) {
    void test(`${f.key}: config.yml sets it, a recipe overrides it, an empty value inherits`, async () => {
      const sample = SAMPLES[f.key];
      assert.ok(sample, `no sample for ${f.key}`);
      const home = await makeTmpHome();
      try {
        await home.writeConfig(stringify({ [f.key]: sample.config }));
        await home.writeRecipe('inherits', directRecipe('inherits'));
        await home.writeRecipe('overrides', directRecipe('overrides', { [f.key]: sample.recipe }));
        await home.writeRecipe('empty', `${directRecipe('empty')}${f.key}:\n`);
        const ws = await load(home);
        const fromConfig = sample.expectConfig ?? sample.config;
        const fromRecipe = sample.expectRecipe ?? sample.recipe;
        assert.deepEqual(ws.global[f.key], fromConfig);
        assert.deepEqual(okApp(ws, 'inherits')[f.key], fromConfig);
        assert.deepEqual(okApp(ws, 'empty')[f.key], fromConfig);
        if (f.globalOnly) {
          // Only config.yml may set it: a recipe that does is refused, naming the field.
          const refused = ws.apps.find((a) => a.name === 'overrides');
          assert.ok(refused && !refused.ok, `${f.key} in a recipe is an error`);
          assert.match(refused.error.message, new RegExp(`${f.key}: only config\\.yml reads this field`));
        } else assert.deepEqual(okApp(ws, 'overrides')[f.key], fromRecipe);
      } finally {
        await home.cleanup();
      }
    });
  }

  void test('an empty value in config.yml means "not set": the default applies', async () => {
    const home = await makeTmpHome();
    try {
      await home.writeConfig(GLOBAL_FIELDS.map((f) => `${f.key}:`).join('\n'));
      await home.writeRecipe('a', directRecipe('a'));
      const app = okApp(await load(home), 'a');
      assert.equal(app.storage_dir, join(home.home, '.local/bin/AppImages'));
      assert.equal(app.naming_format, '{name}.AppImage');
      assert.equal(app.download_connections, 4);
      assert.equal(app.hub_proxy_prefix, 'all');
      assert.equal(app.hub_token, undefined);
    } finally {
      await home.cleanup();
    }
  });

  void test('recipe-only fields: defaults and values', async () => {
    const home = await makeTmpHome();
    try {
      await home.writeRecipe('bare', directRecipe('bare'));
      await home.writeRecipe(
        'full',
        directRecipe('full', {
          ignore: true,
          zsync: 'https://example.com/app.AppImage.zsync',
          desktop_exec_args: ['--no-sandbox'],
          desktop_env: { GDK_SCALE: 2, DEBUG: true, LANG: 'C' },
        }),
      );
      const ws = await load(home);
      const bare = okApp(ws, 'bare');
      const defaults = Object.fromEntries(
        RECIPE_FIELDS.filter((f) => f.default !== undefined).map((f) => [f.key, f.default]),
      );
      assert.deepEqual(defaults, { ignore: false, zsync: false, desktop_exec_args: [], desktop_env: {} });
      for (const [key, value] of Object.entries(defaults))
        assert.deepEqual(bare[key as keyof typeof bare], value, key);
      const full = okApp(ws, 'full');
      assert.equal(full.ignore, true);
      assert.equal(full.zsync, 'https://example.com/app.AppImage.zsync');
      assert.deepEqual(full.desktop_exec_args, ['--no-sandbox']);
      assert.deepEqual(full.desktop_env, { GDK_SCALE: '2', DEBUG: 'true', LANG: 'C' });
    } finally {
      await home.cleanup();
    }
  });

  void test('inner_asset_match at the top level reaches the forge strategy; strategy.prerelease is kept', async () => {
    const home = await makeTmpHome();
    try {
      await home.writeRecipe(
        'zipped',
        stringify({
          name: 'zipped',
          inner_asset_match: '*.AppImage',
          strategy: {
            strategy: 'forge',
            repository: 'https://github.com/o/r',
            asset_match: '*.zip',
            prerelease: true,
          },
        }),
      );
      const app = okApp(await load(home), 'zipped');
      assert.deepEqual(app.strategy, {
        strategy: 'forge',
        repository: 'https://github.com/o/r',
        asset_match: '*.zip',
        inner_asset_match: '*.AppImage',
        prerelease: true,
      });
    } finally {
      await home.cleanup();
    }
  });
});
