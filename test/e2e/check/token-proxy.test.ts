/**
 * Where the hub token goes and the proxy fallback through the CLI:
 * the token reaches hub API requests only; proxies are tried in order and must name the repository.
 */
import assert from 'node:assert/strict';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { RecordedRequest } from '../../../sim/index.js';
import type { TmpHome } from '../../helpers/tmp-home.js';
import { app, check, cliEnv, directRecipe, hubRecipe, publishHub, requestsTo, useE2e } from './helpers.js';

const RATE_LIMITED = { rateLimit: { kind: '403-remaining', resetInSeconds: 3600 } } as const;

function auth(q: RecordedRequest | undefined): string | undefined {
  const value = q?.headers.authorization;
  return Array.isArray(value) ? value.join(',') : value;
}

void describe('check: hub token scope', () => {
  const e = useE2e();
  before(() => {
    publishHub(e.sim, 'tok/app', 'v1', ['App-x86_64.AppImage']);
  });

  // The shared token goes only to the API base config.yml names, so the sim's hub is named there
  // (the web host stays per recipe: a Gitea recipe below lives on the same origin).
  async function hubHome(): Promise<TmpHome> {
    const h = await e.home();
    await h.writeConfig(stringify({ hub_release_api_url: e.sim.hubApiUrl }));
    return h;
  }

  async function tokenHome(): Promise<TmpHome> {
    const h = await hubHome();
    await h.writeRecipe('app', hubRecipe(e.sim, 'app', 'tok/app'));
    return h;
  }

  async function hubAuthorization(env: NodeJS.ProcessEnv): Promise<string | undefined> {
    e.sim.clearRequests();
    const r = await check(env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(app(r, 'app').latest_version, 'v1');
    const reqs = requestsTo(e.sim, '/repos/tok/app/releases/latest');
    assert.equal(reqs.length, 1);
    return auth(reqs[0]);
  }

  void test('HUB_TOKEN, GITHUB_TOKEN and secrets.yml each reach the hub API; HUB_TOKEN wins', async () => {
    const h = await tokenHome();
    assert.equal(await hubAuthorization(cliEnv(h)), undefined, 'no token configured: no header');
    assert.equal(await hubAuthorization(cliEnv(h, { HUB_TOKEN: 't-hub' })), 'Bearer t-hub');
    assert.equal(await hubAuthorization(cliEnv(h, { GITHUB_TOKEN: 't-gh' })), 'Bearer t-gh');
    const secrets = join(h.configDir, 'secrets.yml');
    await writeFile(secrets, 'hub_token: t-secret\n');
    await chmod(secrets, 0o600);
    assert.equal(await hubAuthorization(cliEnv(h)), 'Bearer t-secret');
    assert.equal(await hubAuthorization(cliEnv(h, { HUB_TOKEN: 't-hub' })), 'Bearer t-hub');
  });

  void test('never on lab, gitea, direct URLs or a redirect to another origin', async () => {
    const h = await tokenHome();
    const labUrl = e.sim.putAsset('/tok/lab/Lab-x86_64.AppImage', Buffer.from('lab'));
    e.sim.lab.setLatest('tok/labproj', { tag: 'l1', assets: [{ name: 'Lab-x86_64.AppImage', url: labUrl }] });
    await h.writeRecipe(
      'labapp',
      stringify({
        name: 'labapp',
        lab_release_api_url: e.sim.labApiUrl,
        lab_release_web_url: e.sim.secondUrl,
        strategy: {
          strategy: 'forge',
          repository: `${e.sim.secondUrl}/tok/labproj`,
          asset_match: '*.AppImage',
        },
      }),
    );
    e.sim.gitea.setFlavor('gitea');
    const giteaUrl = e.sim.putAsset('/tok/gitea/Gt-x86_64.AppImage', Buffer.from('gt'));
    e.sim.gitea.setLatest('tokg', 'gt', {
      tag: 'g1',
      assets: [{ name: 'Gt-x86_64.AppImage', url: giteaUrl }],
    });
    await h.writeRecipe(
      'giteaapp',
      stringify({
        name: 'giteaapp',
        strategy: { strategy: 'forge', repository: `${e.sim.url}/tokg/gt`, asset_match: '*.AppImage' },
      }),
    );
    const directUrl = e.sim.putAsset('/tok/direct/D.AppImage', Buffer.from('d'), { etag: '"d1"' });
    await h.writeRecipe('directapp', directRecipe('directapp', directUrl, 'etag'));
    // A hub API answer that redirects to the other origin (a renamed repository on another host).
    publishHub(e.sim, 'tok/moved', 'm1', ['Moved-x86_64.AppImage']);
    e.sim.redirect('/repos/tok/moved/releases/latest', `${e.sim.secondUrl}/repos/tok/moved/releases/latest`);
    await h.writeRecipe('moved', hubRecipe(e.sim, 'moved', 'tok/moved'));

    e.sim.clearRequests();
    const r = await check(cliEnv(h, { HUB_TOKEN: 't-hub' }));
    assert.equal(r.code, 0, r.stdout);
    for (const name of ['app', 'labapp', 'giteaapp', 'directapp', 'moved']) {
      assert.equal(app(r, name).status, 'update_available', JSON.stringify(app(r, name)));
    }
    assert.equal(app(r, 'moved').latest_version, 'm1');

    const moved = requestsTo(e.sim, '/repos/tok/moved/releases/latest');
    assert.deepEqual(
      moved.map((q) => [q.origin, auth(q)]),
      [
        ['main', 'Bearer t-hub'],
        ['second', undefined],
      ],
    );
    const withToken = e.sim.requests.filter((q) => auth(q) !== undefined);
    assert.deepEqual(
      withToken.map((q) => `${q.origin} ${q.path}`).sort(),
      ['main /repos/tok/app/releases/latest', 'main /repos/tok/moved/releases/latest'],
      'only the two hub API requests on the API origin carry the token',
    );
    // The others were really sent (so their lack of a token means something).
    assert.ok(requestsTo(e.sim, '/api/v4/projects/tok%2Flabproj/').length > 0);
    assert.ok(requestsTo(e.sim, '/swagger.v1.json').length > 0);
    assert.ok(requestsTo(e.sim, '/api/v1/repos/tokg/gt/').length > 0);
    assert.ok(requestsTo(e.sim, '/tok/direct/D.AppImage').length > 0);
  });

  void test('a rate-limited hub request goes to the proxy without the token', async () => {
    const h = await hubHome();
    publishHub(e.sim, 'tok/limited', 'p1', ['Lim-x86_64.AppImage']);
    e.sim.fault('/repos/tok/limited/releases/latest', RATE_LIMITED);
    await h.writeRecipe('limited', hubRecipe(e.sim, 'limited', 'tok/limited'));
    e.sim.clearRequests();
    const r = await check(cliEnv(h, { HUB_TOKEN: 't-hub' }, e.sim.proxyPrefix()));
    assert.equal(r.code, 0, r.stdout);
    assert.equal(app(r, 'limited').latest_version, 'p1');
    const proxied = e.sim.requests.filter((q) => q.path.startsWith('/proxy/'));
    assert.equal(proxied.length, 1);
    assert.equal(auth(proxied[0]), undefined);
    const direct = requestsTo(e.sim, '/repos/tok/limited/').filter((q) => !q.path.startsWith('/proxy/'));
    assert.deepEqual(
      direct.map((q) => [q.origin, auth(q)]),
      [
        ['main', 'Bearer t-hub'], // the CLI's own request, rate limited
        ['main', undefined], // the proxy's hop to the target
      ],
    );
  });
});

void describe('check: proxy fallback', () => {
  const e = useE2e();

  /** Paths the CLI sent for repository `repo`, direct and proxied, in order (proxy hops left out). */
  function attempts(repo: string): string[] {
    return e.sim.requests
      .filter((q) => q.path.includes(`/repos/${repo}/`) && q.headers['x-sim-proxy-hop'] === undefined)
      .map((q) => `${q.origin} ${q.path.replace(e.sim.hubApiUrl, '<api>')}`);
  }

  void test('hub_proxy_prefix list: tried in order after the rate limit; download URL stays direct', async () => {
    const h = await e.home();
    const urls = publishHub(e.sim, 'px/list', 'v7', ['List-x86_64.AppImage']);
    e.sim.fault('/repos/px/list/releases/latest', RATE_LIMITED);
    const dead = `${e.sim.secondUrl}/no-such-proxy/`;
    await h.writeRecipe(
      'listapp',
      hubRecipe(
        e.sim,
        'listapp',
        'px/list',
        {},
        { hub_proxy: true, hub_proxy_prefix: [dead, e.sim.proxyPrefix()] },
      ),
    );
    e.sim.clearRequests();
    const r = await check(cliEnv(h));
    assert.equal(r.code, 0, r.stdout);
    const a = app(r, 'listapp');
    assert.equal(a.status, 'update_available');
    assert.equal(a.latest_version, 'v7');
    assert.equal(a.url, urls['List-x86_64.AppImage']);
    assert.deepEqual(attempts('px/list'), [
      'main /repos/px/list/releases/latest',
      'second /no-such-proxy/<api>/repos/px/list/releases/latest',
      `second ${e.sim.proxyPrefix().replace(e.sim.secondUrl, '')}<api>/repos/px/list/releases/latest`,
    ]);
  });

  void test('hub_proxy_prefix all: the built-in list from APPIMAGE_KEEPER_PROXY_BUILTINS, in order', async () => {
    const h = await e.home();
    publishHub(e.sim, 'px/all', 'v8', ['All-x86_64.AppImage']);
    e.sim.fault('/repos/px/all/releases/latest', RATE_LIMITED);
    await h.writeRecipe(
      'allapp',
      hubRecipe(e.sim, 'allapp', 'px/all', {}, { hub_proxy: true, hub_proxy_prefix: 'all' }),
    );
    const builtins = `${e.sim.secondUrl}/first-builtin/ ${e.sim.proxyPrefix()}`;
    e.sim.clearRequests();
    const r = await check(cliEnv(h, {}, builtins));
    assert.equal(r.code, 0, r.stdout);
    assert.equal(app(r, 'allapp').latest_version, 'v8');
    assert.deepEqual(attempts('px/all'), [
      'main /repos/px/all/releases/latest',
      'second /first-builtin/<api>/repos/px/all/releases/latest',
      `second ${e.sim.proxyPrefix().replace(e.sim.secondUrl, '')}<api>/repos/px/all/releases/latest`,
    ]);
  });

  void test('proxied metadata naming another repository is rejected', async () => {
    const h = await e.home();
    publishHub(e.sim, 'px/wrong', 'v1', ['Wrong-x86_64.AppImage']);
    e.sim.fault('/repos/px/wrong/releases/latest', RATE_LIMITED);
    const evil = {
      tag_name: 'v99',
      html_url: `${e.sim.url}/evil/other/releases/tag/v99`,
      assets: [
        {
          name: 'Wrong-x86_64.AppImage',
          browser_download_url: `${e.sim.url}/evil/other/Wrong-x86_64.AppImage`,
        },
      ],
    };
    e.sim.fault(/^\/proxy\/.*\/repos\/px\/wrong\//, {
      body: JSON.stringify(evil),
      contentType: 'application/json',
    });
    await h.writeRecipe('wrongapp', hubRecipe(e.sim, 'wrongapp', 'px/wrong', {}, { hub_proxy: true }));
    e.sim.clearRequests();
    const r = await check(cliEnv(h, {}, e.sim.proxyPrefix()));
    assert.equal(r.code, 0, 'rate limited is not a failure');
    const a = app(r, 'wrongapp');
    assert.equal(a.status, 'rate_limited');
    assert.notEqual(a.latest_version, 'v99');
    assert.ok(a.retry_at);
    assert.match(r.stderr, /another repository/);
    assert.equal(attempts('px/wrong').length, 2, 'the hub, then the proxy');
  });

  void test('hub_proxy_prefix as one URL string', async () => {
    const h = await e.home();
    publishHub(e.sim, 'px/one', 'v3', ['One-x86_64.AppImage']);
    e.sim.fault('/repos/px/one/releases/latest', RATE_LIMITED);
    await h.writeRecipe(
      'oneapp',
      hubRecipe(e.sim, 'oneapp', 'px/one', {}, { hub_proxy: true, hub_proxy_prefix: e.sim.proxyPrefix() }),
    );
    e.sim.clearRequests();
    const r = await check(cliEnv(h, {}, `${e.sim.secondUrl}/never-used/`));
    assert.equal(app(r, 'oneapp').latest_version, 'v3');
    assert.deepEqual(attempts('px/one'), [
      'main /repos/px/one/releases/latest',
      `second ${e.sim.proxyPrefix().replace(e.sim.secondUrl, '')}<api>/repos/px/one/releases/latest`,
    ]);
  });

  void test('hub_proxy false: no proxy request at all', async () => {
    const h = await e.home();
    publishHub(e.sim, 'px/off', 'v1', ['Off-x86_64.AppImage']);
    e.sim.fault('/repos/px/off/releases/latest', RATE_LIMITED);
    await h.writeRecipe('offapp', hubRecipe(e.sim, 'offapp', 'px/off', {}, { hub_proxy: false }));
    e.sim.clearRequests();
    const r = await check(cliEnv(h, {}, e.sim.proxyPrefix()));
    assert.equal(app(r, 'offapp').status, 'rate_limited');
    assert.deepEqual(attempts('px/off'), ['main /repos/px/off/releases/latest']);
  });
});
