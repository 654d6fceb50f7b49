import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim } from '../../../sim/index.js';
import type { Sim } from '../../../sim/index.js';
import type { AppSettings } from '../../../src/config/types.js';
import { resolveApp } from '../../../src/sources/resolve.js';
import { forge, header, makeContext, makeDeps, makeSettings, startStub } from '../support.js';
import type { StubServer } from '../support.js';

void describe('hub proxy fallback', () => {
  let sim: Sim;
  let down: StubServer;
  let impostor: StubServer;
  let assetUrl: string;
  let settings: (extra?: Partial<AppSettings>) => AppSettings;
  const limitApi = (): void =>
    sim.fault(/^\/repos\/acme\/px\/releases\/latest/, {
      rateLimit: { kind: '403-remaining', resetInSeconds: 1200 },
      times: 1,
    });

  before(async () => {
    sim = await startSim();
    assetUrl = sim.putAsset('/acme/px/releases/download/v7/px.AppImage', Buffer.from('px'));
    sim.hub.setLatest('acme', 'px', { tag: 'v7', assets: [{ name: 'px.AppImage', url: assetUrl }] });
    down = await startStub(() => ({ status: 502, body: '{"message":"bad gateway"}' }));
    impostor = await startStub(() => ({
      status: 200,
      body: JSON.stringify({
        tag_name: 'v666',
        html_url: 'https://github.com/evil/px/releases/tag/v666',
        assets: [{ name: 'px.AppImage', browser_download_url: 'https://evil.example/evil/px/px.AppImage' }],
      }),
    }));
    settings = (extra = {}) =>
      makeSettings(forge(`${sim.url}/acme/px`), {
        hub_release_web_url: sim.url,
        hub_release_api_url: sim.hubApiUrl,
        hub_proxy: true,
        token: { value: 'never-to-proxies', source: 'env:HUB_TOKEN' },
        ...extra,
      });
  });
  after(async () => {
    await Promise.all([sim.stop(), down.stop(), impostor.stop()]);
  });
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
    down.hits.length = 0;
    impostor.hits.length = 0;
  });

  void test('bases are tried in order; the download stays the direct asset URL; no token to proxies', async () => {
    limitApi();
    const prefix = [`${down.url}/p/`, sim.proxyPrefix()];
    const outcome = await resolveApp(settings({ hub_proxy_prefix: prefix }), makeDeps());
    assert.equal(outcome.kind, 'resolved', JSON.stringify(outcome));
    if (outcome.kind !== 'resolved') return;
    assert.equal(outcome.resolution.version, 'v7');
    assert.equal(outcome.resolution.url, assetUrl);

    assert.equal(down.hits.length, 1);
    assert.equal(down.hits[0]?.path, `/p/${sim.hubApiUrl}/repos/acme/px/releases/latest`);
    assert.equal(down.hits[0]?.headers.authorization, undefined);
    const direct = sim.requests.filter((r) => r.origin === 'main' && r.path.startsWith('/repos/'));
    assert.equal(header(direct[0]?.headers ?? {}, 'authorization'), 'Bearer never-to-proxies');
    const proxied = sim.requests.filter((r) => r.path.startsWith('/proxy/'));
    assert.equal(proxied.length, 1);
    assert.equal(header(proxied[0]?.headers ?? {}, 'authorization'), undefined);
    // The proxy's own hop to the API carries no token either.
    assert.ok(direct.length >= 2);
    for (const hop of direct.slice(1)) assert.equal(header(hop.headers, 'authorization'), undefined);
  });

  void test('`all` uses the built-in list, injectable through deps and the environment', async () => {
    limitApi();
    const viaDeps = await resolveApp(
      settings({ hub_proxy_prefix: 'all' }),
      makeDeps(makeContext(), undefined, { proxyBuiltins: [`${down.url}/`, sim.proxyPrefix()] }),
    );
    assert.equal(viaDeps.kind, 'resolved');
    assert.equal(down.hits.length, 1);

    limitApi();
    const env = { APPIMAGE_KEEPER_PROXY_BUILTINS: sim.proxyPrefix() };
    const viaEnv = await resolveApp(
      settings({ hub_proxy_prefix: 'all' }),
      makeDeps(makeContext(env), undefined, { proxyBuiltins: undefined }),
    );
    assert.equal(viaEnv.kind, 'resolved');
  });

  void test('a proxy answering for another repository is rejected and the next one used', async () => {
    limitApi();
    const ctx = makeContext();
    const outcome = await resolveApp(
      settings({ hub_proxy_prefix: [`${impostor.url}/`, sim.proxyPrefix()] }),
      makeDeps(ctx),
    );
    assert.equal(outcome.kind, 'resolved');
    if (outcome.kind === 'resolved') assert.equal(outcome.resolution.version, 'v7');
    assert.equal(impostor.hits.length, 1);
    assert.ok(ctx.events.some((e) => e.type === 'warning' && e.code === 'PROXY_WRONG_REPOSITORY'));
  });

  void test('a proxy naming the repository but pointing an asset elsewhere fails the app', async () => {
    limitApi();
    const forger = await startStub(() => ({
      status: 200,
      body: JSON.stringify({
        tag_name: 'v8',
        html_url: `${sim.url}/acme/px/releases/tag/v8`,
        assets: [
          // Right name and repository words, wrong host; then a second-origin copy of the real path.
          {
            name: 'px.AppImage',
            browser_download_url: `${sim.secondUrl}/acme/px/releases/download/v8/px.AppImage`,
          },
        ],
      }),
    }));
    try {
      await assert.rejects(
        resolveApp(settings({ hub_proxy_prefix: [`${forger.url}/`, sim.proxyPrefix()] }), makeDeps()),
        (err: { code?: string; message?: string }) =>
          err.code === 'PROXY_ASSET_URL' && (err.message ?? '').includes(`${forger.url}/`),
      );
    } finally {
      await forger.stop();
    }
  });

  void test('when every proxy fails the app is rate limited with the window', async () => {
    limitApi();
    const outcome = await resolveApp(
      settings({ hub_proxy_prefix: [`${impostor.url}/`, `${down.url}/`] }),
      makeDeps(),
    );
    assert.equal(outcome.kind, 'rate_limited');
    if (outcome.kind !== 'rate_limited') return;
    assert.ok(outcome.retryAt.getTime() > Date.now() + 600_000);
    assert.match(outcome.message, /every proxy failed/);
  });

  void test('hub_proxy: false never touches a proxy', async () => {
    limitApi();
    const outcome = await resolveApp(
      settings({ hub_proxy: false, hub_proxy_prefix: [`${down.url}/`] }),
      makeDeps(),
    );
    assert.equal(outcome.kind, 'rate_limited');
    assert.equal(down.hits.length, 0);
  });
});
