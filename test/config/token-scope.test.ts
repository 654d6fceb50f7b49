/**
 * Which token a recipe gets: the shared one (environment, secrets.yml, config.yml) only when its hub
 * API base is the one config.yml names; otherwise only a hub_token of its own, with a warning.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeTmpHome } from '../helpers/tmp-home.js';
import { directRecipe, load, okApp, writeSecrets } from './workspace-fixture.js';

void describe('hub token scope by API base', () => {
  void test('same base (written differently) keeps the shared token; another base gets only its own', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeConfig('hub_release_api_url: https://ghe.example/api/v3\n');
      await writeSecrets(h, 'hub_token: shared\n');
      await h.writeRecipe(
        'same',
        directRecipe('same', { hub_release_api_url: 'https://GHE.example:443/api/v3/' }),
      );
      await h.writeRecipe(
        'away',
        directRecipe('away', { hub_release_api_url: 'https://evil.example/api/v3' }),
      );
      await h.writeRecipe(
        'webonly',
        directRecipe('webonly', { hub_release_web_url: 'https://other.example' }),
      );
      await h.writeRecipe(
        'own',
        directRecipe('own', { hub_release_api_url: 'https://evil.example/api/v3', hub_token: 'mine' }),
      );
      const ws = await load(h, { ...h.env, HUB_TOKEN: 'from-env' });
      assert.deepEqual(okApp(ws, 'same').token, { value: 'from-env', source: 'env:HUB_TOKEN' });
      assert.equal(okApp(ws, 'away').token, undefined);
      assert.equal(okApp(ws, 'away').tokenWithheld, 'env:HUB_TOKEN');
      // Another web host with config.yml's API base still talks to that base.
      assert.equal(okApp(ws, 'webonly').token?.value, 'from-env');
      assert.equal(okApp(ws, 'own').token?.value, 'mine');
      assert.equal(okApp(ws, 'own').tokenWithheld, undefined);
      const warnings = ws.warnings.filter((w) => w.includes('is not sent there'));
      assert.equal(warnings.length, 1, ws.warnings.join('\n'));
      assert.ok(warnings.some((w) => w.includes('away') && w.includes('https://evil.example/api/v3')));

      // Without any shared token there is nothing to withhold, so nothing to warn about.
      await h.writeConfig('hub_release_api_url: https://ghe.example/api/v3\n');
      await writeSecrets(h, '# none\n');
      const quiet = await load(h, h.env);
      assert.equal(quiet.warnings.filter((w) => w.includes('is not sent there')).length, 0);
    } finally {
      await h.cleanup();
    }
  });
});
