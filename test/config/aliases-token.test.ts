import assert from 'node:assert/strict';
import { chmod } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { ConfigError, ExitCode } from '../../src/core/errors.js';
import type { TmpHome } from '../helpers/tmp-home.js';
import { directRecipe, failedApp, load, okApp, withHome, writeSecrets } from './workspace-fixture.js';

// alias → [canonical key, a valid value, the loaded value]
const ALIASES: [string, string, unknown, unknown][] = [
  ['github_token', 'hub_token', 'tok', 'tok'],
  ['github_proxy', 'hub_proxy', false, false],
  ['github_proxy_prefix', 'hub_proxy_prefix', 'https://p.example/', ['https://p.example/']],
  ['github_release_api_url', 'hub_release_api_url', 'https://api.h.example', 'https://api.h.example'],
  ['github_release_web_url', 'hub_release_web_url', 'https://h.example', 'https://h.example'],
  ['gitlab_release_api_url', 'lab_release_api_url', 'https://l.example/api/v4', 'https://l.example/api/v4'],
  ['gitlab_release_web_url', 'lab_release_web_url', 'https://l.example', 'https://l.example'],
  ['integration', 'manage_desktop_files', false, false],
  ['create_symlink', 'create_symlinks', true, true],
];

function yamlValue(v: unknown): string {
  return JSON.stringify(v);
}

void describe('branded aliases', () => {
  for (const [alias, key, value, loaded] of ALIASES) {
    void test(`${alias} = ${key} in config.yml and in a recipe; both spellings at once is an error`, () =>
      withHome(async (h) => {
        await h.writeConfig(`${alias}: ${yamlValue(value)}\n`);
        await h.writeRecipe('viaalias', directRecipe('viaalias', { [alias]: value }));
        await h.writeRecipe('plain', directRecipe('plain'));
        await h.writeRecipe(
          'both',
          `${directRecipe('both')}${key}: ${yamlValue(value)}\n${alias}: ${yamlValue(value)}\n`,
        );
        const ws = await load(h);
        assert.deepEqual(ws.config.values[key], loaded);
        assert.equal(alias in ws.config.values, false);
        assert.deepEqual(okApp(ws, 'plain')[key as 'hub_token'], loaded);
        assert.deepEqual(okApp(ws, 'viaalias')[key as 'hub_token'], loaded);
        const both = failedApp(ws, 'both');
        assert.ok(both.error instanceof ConfigError);
        assert.deepEqual(
          both.error.issues.map((i) => [i.line, i.col, i.message]),
          [[7, 1, `both "${key}" and its alias "${alias}" are set`]],
        );

        await h.writeConfig(`${key}: ${yamlValue(value)}\n${alias}: ${yamlValue(value)}\n`);
        const err = await load(h).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(err instanceof ConfigError, String(err));
        assert.equal(err.exitCode, ExitCode.usage);
        assert.deepEqual(
          err.issues.map((i) => [i.line, i.col]),
          [[2, 1]],
        );
      }));
  }

  void test('an invalid value under an alias is reported at the alias key spelling', () =>
    withHome(async (h) => {
      await h.writeConfig('show_all: true\ngithub_proxy_prefix: nope\n');
      const err = await load(h).catch((e: unknown) => e);
      assert.ok(err instanceof ConfigError);
      assert.equal(err.issues.length, 1);
      assert.equal(err.issues[0]?.line, 2);
      assert.equal(err.issues[0]?.col, 22);
      assert.match(err.issues[0]?.message ?? '', /^github_proxy_prefix: must be "all"/);
    }));
});

void describe('hub token precedence', () => {
  const CONFIG_WARNING = /hub_token is set in config\.yml or a recipe/;

  async function tokenOf(h: TmpHome, env: NodeJS.ProcessEnv) {
    const ws = await load(h, { ...h.env, ...env });
    return { token: okApp(ws, 'app').token, warnings: ws.warnings };
  }

  void test('HUB_TOKEN > GITHUB_TOKEN > GH_TOKEN > secrets.yml > config.yml (with a warning)', () =>
    withHome(async (h) => {
      await h.writeConfig('hub_token: from-config\n');
      await h.writeRecipe('app', directRecipe('app'));
      await writeSecrets(h, 'hub_token: from-secrets\n');
      const all = { HUB_TOKEN: 'from-hub', GITHUB_TOKEN: 'from-github', GH_TOKEN: 'from-gh' };

      let r = await tokenOf(h, all);
      assert.deepEqual(r.token, { value: 'from-hub', source: 'env:HUB_TOKEN' });
      assert.deepEqual(r.warnings, []);
      r = await tokenOf(h, { ...all, HUB_TOKEN: '' });
      assert.deepEqual(r.token, { value: 'from-github', source: 'env:GITHUB_TOKEN' });
      r = await tokenOf(h, { GH_TOKEN: 'from-gh' });
      assert.deepEqual(r.token, { value: 'from-gh', source: 'env:GH_TOKEN' });
      r = await tokenOf(h, { GH_TOKEN: '   ' });
      assert.deepEqual(r.token, { value: 'from-secrets', source: 'secrets.yml' });
      assert.deepEqual(r.warnings, []);

      await writeSecrets(h, '# no token here\n');
      r = await tokenOf(h, {});
      assert.deepEqual(r.token, { value: 'from-config', source: 'config.yml' });
      assert.equal(r.warnings.filter((w) => CONFIG_WARNING.test(w)).length, 1);

      await h.writeConfig('show_all: false\n');
      r = await tokenOf(h, {});
      assert.equal(r.token, undefined);
      assert.deepEqual(r.warnings, []);
    }));

  void test('secrets.yml accepts github_token; a token in a recipe is used and warned about', () =>
    withHome(async (h) => {
      await writeSecrets(h, 'github_token: s-alias\n');
      await h.writeRecipe('app', directRecipe('app', { hub_token: 'from-recipe' }));
      let r = await tokenOf(h, {});
      assert.deepEqual(r.token, { value: 's-alias', source: 'secrets.yml' });
      await writeSecrets(h, '{}\n');
      r = await tokenOf(h, {});
      assert.deepEqual(r.token, { value: 'from-recipe', source: 'config.yml' });
      assert.ok(r.warnings.some((w) => CONFIG_WARNING.test(w)));
    }));

  void test('secrets.yml readable by group or others is warned about, 0600 is not', () =>
    withHome(async (h) => {
      await h.writeRecipe('app', directRecipe('app'));
      const file = await writeSecrets(h, 'hub_token: s\n');
      for (const mode of [0o644, 0o640, 0o604]) {
        await chmod(file, mode);
        const ws = await load(h);
        assert.equal(ws.warnings.length, 1, mode.toString(8));
        assert.match(
          ws.warnings[0] ?? '',
          new RegExp(`readable by group or others \\(mode ${mode.toString(8)}\\)`),
        );
        assert.ok(ws.warnings[0]?.includes(`chmod 600 ${file}`));
      }
      await chmod(file, 0o600);
      assert.deepEqual((await load(h)).warnings, []);
    }));

  void test('a broken secrets.yml stops the run with exit 2 and a position', () =>
    withHome(async (h) => {
      await writeSecrets(h, 'hub_token: a\nhub_tokn: b\n');
      const err = await load(h).catch((e: unknown) => e);
      assert.ok(err instanceof ConfigError);
      assert.equal(err.exitCode, ExitCode.usage);
      assert.deepEqual(
        err.issues.map((i) => [i.line, i.col, i.message, i.hint]),
        [[2, 1, 'unknown key "hub_tokn"', 'did you mean "hub_token"?']],
      );
    }));
});
