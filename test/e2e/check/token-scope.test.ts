/**
 * Where the hub token may go, by path and by who configured the API base: after a redirect it
 * goes only while the URL stays under the hub API base (not merely on its origin), and the shared
 * token (environment, secrets.yml, config.yml) goes only to the base config.yml names.
 */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { RecordedRequest, Sim } from '../../../sim/index.js';
import { runCli } from '../../helpers/run-cli.js';
import type { TmpHome } from '../../helpers/tmp-home.js';
import { app, check, cliEnv, requestsTo, useE2e } from './helpers.js';

const PREFIX = '/api/v3';

function auth(q: RecordedRequest): string | undefined {
  const value = q.headers.authorization;
  return Array.isArray(value) ? value.join(',') : value;
}

/** Authorization values received on paths containing `fragment`, one per request. */
function authsTo(sim: Sim, fragment: string): (string | undefined)[] {
  return requestsTo(sim, fragment).map(auth);
}

/** A release document as the hub API renders it, served from an arbitrary path. */
function releaseJson(sim: Sim, repo: string, tag: string): Buffer {
  const url = sim.putAsset(`/dl/${repo}/${tag}/App-x86_64.AppImage`, Buffer.from(`${repo} ${tag}`));
  return Buffer.from(
    JSON.stringify({
      tag_name: tag,
      html_url: `${sim.url}/${repo}/releases/tag/${tag}`,
      assets: [
        { id: 1, name: 'App-x86_64.AppImage', size: repo.length + tag.length + 1, browser_download_url: url },
      ],
    }),
  );
}

function plainRecipe(sim: Sim, name: string, repo: string, top: Record<string, unknown> = {}): string {
  return stringify({
    name,
    ...top,
    strategy: { strategy: 'forge', repository: `${sim.url}/${repo}`, asset_match: '*.AppImage' },
  });
}

void describe('hub token: path scope after redirects', () => {
  const e = useE2e({ hubApiPrefix: PREFIX });

  async function home(): Promise<TmpHome> {
    const h = await e.home();
    // An enterprise hub whose API lives under /api/v3 of the same origin as its uploads.
    await h.writeConfig(stringify({ hub_release_api_url: e.sim.hubApiUrl, hub_release_web_url: e.sim.url }));
    return h;
  }

  void test('a redirect to /uploads or /api/v3evil on the same origin loses the token; one inside keeps it', async () => {
    const h = await home();
    const json = { contentType: 'application/json' };
    e.sim.putAsset('/uploads/scope/up/latest.json', releaseJson(e.sim, 'scope/up', 'u1'), json);
    e.sim.redirect(`${PREFIX}/repos/scope/up/releases/latest`, `${e.sim.url}/uploads/scope/up/latest.json`);
    e.sim.putAsset(
      `${PREFIX}evil/repos/scope/evil/releases/latest`,
      releaseJson(e.sim, 'scope/evil', 'e1'),
      json,
    );
    e.sim.redirect(
      `${PREFIX}/repos/scope/evil/releases/latest`,
      `${PREFIX}evil/repos/scope/evil/releases/latest`,
    );
    e.sim.putAsset(`${PREFIX}/repositories/7/releases/latest`, releaseJson(e.sim, 'scope/in', 'i1'), json);
    e.sim.redirect(`${PREFIX}/repos/scope/in/releases/latest`, `${PREFIX}/repositories/7/releases/latest`);
    await h.writeRecipe('up', plainRecipe(e.sim, 'up', 'scope/up'));
    await h.writeRecipe('evil', plainRecipe(e.sim, 'evil', 'scope/evil'));
    await h.writeRecipe('inside', plainRecipe(e.sim, 'inside', 'scope/in'));

    e.sim.clearRequests();
    const r = await check(cliEnv(h, { HUB_TOKEN: 't-hub' }));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(app(r, 'up').latest_version, 'u1');
    assert.equal(app(r, 'evil').latest_version, 'e1');
    assert.equal(app(r, 'inside').latest_version, 'i1');

    assert.deepEqual(authsTo(e.sim, `${PREFIX}/repos/scope/`), [
      'Bearer t-hub',
      'Bearer t-hub',
      'Bearer t-hub',
    ]);
    assert.deepEqual(authsTo(e.sim, '/uploads/scope/up/'), [undefined]);
    assert.deepEqual(authsTo(e.sim, `${PREFIX}evil/`), [undefined]);
    assert.deepEqual(authsTo(e.sim, `${PREFIX}/repositories/7/`), ['Bearer t-hub']);
    const received = e.sim.requests
      .filter((q) => auth(q) !== undefined)
      .map((q) => q.path.split('/releases')[0]);
    assert.deepEqual(received.sort(), [
      `${PREFIX}/repos/scope/evil`,
      `${PREFIX}/repos/scope/in`,
      `${PREFIX}/repos/scope/up`,
      `${PREFIX}/repositories/7`,
    ]);
  });

  void test('doctor --online: the rate_limit probe loses the token on a redirect out of the base', async () => {
    const h = await home();
    const budget = { resources: { core: { limit: 5000, remaining: 4999, reset: 2_000_000_000 } } };
    e.sim.putAsset('/uploads/rate_limit', Buffer.from(JSON.stringify(budget)), {
      contentType: 'application/json',
    });
    e.sim.redirect(`${PREFIX}/rate_limit`, '/uploads/rate_limit');
    e.sim.clearRequests();
    const r = await runCli(['--json', 'doctor', '--online'], { env: cliEnv(h, { HUB_TOKEN: 't-doc' }) });
    assert.ok(r.json, r.stderr);
    assert.deepEqual(authsTo(e.sim, `${PREFIX}/rate_limit`), ['Bearer t-doc']);
    assert.deepEqual(authsTo(e.sim, '/uploads/rate_limit'), [undefined]);
    e.sim.removeAsset(`${PREFIX}/rate_limit`);
  });
});

void describe('hub token: only to the API base config.yml names', () => {
  const e = useE2e({ hubApiPrefix: PREFIX });

  /** A recipe that points the hub API at the sim's second origin (another host for the token). */
  function elsewhereRecipe(name: string, repo: string, top: Record<string, unknown> = {}): string {
    return stringify({
      name,
      hub_release_api_url: `${e.sim.secondUrl}${PREFIX}`,
      hub_release_web_url: e.sim.secondUrl,
      ...top,
      strategy: { strategy: 'forge', repository: `${e.sim.secondUrl}/${repo}`, asset_match: '*.AppImage' },
    });
  }

  void test('a recipe-set API base gets neither HUB_TOKEN nor secrets.yml; validate warns; its own hub_token goes', async () => {
    const h = await e.home();
    await h.writeConfig(stringify({ hub_release_api_url: e.sim.hubApiUrl, hub_release_web_url: e.sim.url }));
    for (const repo of ['own/home', 'own/away', 'own/mine']) {
      const [owner = '', name = ''] = repo.split('/');
      const url = e.sim.putAsset(`/dl/${repo}/A-x86_64.AppImage`, Buffer.from(repo));
      e.sim.hub.setLatest(owner, name, { tag: 'v1', assets: [{ name: 'A-x86_64.AppImage', url }] });
    }
    await h.writeRecipe('home', plainRecipe(e.sim, 'home', 'own/home'));
    await h.writeRecipe('away', elsewhereRecipe('away', 'own/away'));
    await h.writeRecipe('mine', elsewhereRecipe('mine', 'own/mine', { hub_token: 'recipe-own' }));

    const secrets = join(h.configDir, 'secrets.yml');
    for (const [env, label] of [
      [{ HUB_TOKEN: 't-env' }, 'env:HUB_TOKEN'],
      [{}, 'secrets.yml'],
    ] as const) {
      if (label === 'secrets.yml') {
        await writeFile(secrets, 'hub_token: t-secret\n');
        await chmod(secrets, 0o600);
      }
      const shared = label === 'secrets.yml' ? 'Bearer t-secret' : 'Bearer t-env';
      e.sim.clearRequests();
      const r = await check(cliEnv(h, env));
      assert.equal(r.code, 0, r.stdout + r.stderr);
      for (const name of ['home', 'away', 'mine']) assert.equal(app(r, name).latest_version, 'v1');
      const apiAuths = (repo: string): [string, string | undefined][] =>
        requestsTo(e.sim, `/repos/${repo}/`).map((q) => [q.origin, auth(q)]);
      assert.deepEqual(apiAuths('own/home'), [['main', shared]]);
      assert.deepEqual(apiAuths('own/away'), [['second', undefined]], 'the shared token stays home');
      assert.deepEqual(apiAuths('own/mine'), [['second', 'Bearer recipe-own']]);
      assert.equal(
        e.sim.requests.filter((q) => q.origin === 'second' && auth(q) === shared).length,
        0,
        'the shared token never reaches the other host',
      );

      const v = await runCli(['validate'], { env: cliEnv(h, env) });
      assert.equal(v.code, 0, v.stdout + v.stderr);
      const warning = v.stderr.split('\n').filter((l) => l.includes('is not sent there'));
      assert.equal(warning.length, 1, v.stderr);
      assert.match(warning[0] ?? '', /away/);
      assert.match(warning[0] ?? '', new RegExp(label.replace('.', '\\.')));
    }
  });
});
