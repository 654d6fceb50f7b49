import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim } from '../../../sim/index.js';
import type { RateLimitKind, Sim } from '../../../sim/index.js';
import type { AppSettings } from '../../../src/config/types.js';
import { KeeperError } from '../../../src/core/errors.js';
import { createMemoryResolverStore } from '../../../src/sources/memory-store.js';
import { resolveApp } from '../../../src/sources/resolve.js';
import type { ResolveOutcome } from '../../../src/sources/types.js';
import { forge, makeContext, makeDeps, makeSettings } from '../support.js';

function limited(outcome: ResolveOutcome): { retryAt: Date; host: string; message: string } {
  assert.equal(outcome.kind, 'rate_limited', JSON.stringify(outcome));
  if (outcome.kind !== 'rate_limited') throw new Error('unreachable');
  return outcome;
}

void describe('rate limits against the sim', () => {
  let sim: Sim;
  let settings: (extra?: Partial<AppSettings>) => AppSettings;
  let apiPath: RegExp;
  before(async () => {
    sim = await startSim();
    const url = sim.putAsset('/dl/rl.AppImage', Buffer.from('rl'));
    sim.hub.setLatest('acme', 'rl', { tag: 'v1', assets: [{ name: 'rl.AppImage', url }] });
    settings = (extra = {}) =>
      makeSettings(forge(`${sim.url}/acme/rl`), {
        hub_release_web_url: sim.url,
        hub_release_api_url: sim.hubApiUrl,
        ...extra,
      });
    apiPath = /^\/repos\/acme\/rl\/releases\/latest/;
  });
  after(async () => {
    await sim.stop();
  });
  beforeEach(() => {
    sim.clearRequests();
    sim.clearFaults();
  });

  const kinds: RateLimitKind[] = [
    '403-remaining',
    '429-retry-after-seconds',
    '429-retry-after-date',
    '429-ratelimit-reset',
  ];
  for (const kind of kinds) {
    void test(`${kind} is a rate limit ending when the headers say`, async () => {
      sim.fault(apiPath, { rateLimit: { kind, resetInSeconds: 600 }, times: 1 });
      const before = Date.now();
      const outcome = limited(await resolveApp(settings(), makeDeps()));
      const expected = before + 600_000;
      // Header times have one-second (epoch, HTTP date) resolution.
      assert.ok(Math.abs(outcome.retryAt.getTime() - expected) < 5_000, outcome.retryAt.toISOString());
      assert.equal(outcome.host, new URL(sim.url).host);
    });
  }

  void test('a plain 403 is a failure, not a rate limit', async () => {
    sim.fault(apiPath, { status: 403, times: 1 });
    await assert.rejects(
      resolveApp(settings(), makeDeps()),
      (err: unknown) => err instanceof KeeperError && err.code === 'FORGE_FORBIDDEN',
    );
  });

  void test('an open window holds back the app that hit it, for the URL it asked, unless forced', async () => {
    sim.fault(apiPath, { rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 900 }, times: 1 });
    const store = createMemoryResolverStore();
    const first = limited(await resolveApp(settings(), makeDeps(makeContext(), store)));
    const window = store.getRateLimit('app:demo');
    assert.equal(window?.host, new URL(sim.url).host);
    assert.equal(window?.url, `${sim.hubApiUrl}/repos/acme/rl/releases/latest`);
    assert.equal(
      store.getRateLimit(`host:${new URL(sim.url).host}`),
      undefined,
      'no window for the whole host',
    );

    sim.clearRequests();
    const again = limited(await resolveApp(settings(), makeDeps(makeContext(), store)));
    assert.equal(again.retryAt.toISOString(), first.retryAt.toISOString());
    assert.equal(again.host, new URL(sim.url).host);
    assert.equal(sim.requests.length, 0, 'the app that was limited sends nothing');

    // Another app on the same host was never told to wait: it sends its own request.
    const other = await resolveApp(settings({ name: 'other' }), makeDeps(makeContext(), store));
    assert.equal(other.kind, 'resolved');
    assert.equal(sim.requests.length, 1);

    // --force tries anyway; the window stays for the unforced runs until a real answer closes it.
    sim.fault(apiPath, { rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 900 }, times: 1 });
    sim.clearRequests();
    limited(await resolveApp(settings(), { ...makeDeps(makeContext(), store), force: true }));
    assert.equal(sim.requests.length, 1, 'forced: sent despite the window');
    sim.clearRequests();
    const forced = await resolveApp(settings(), { ...makeDeps(makeContext(), store), force: true });
    assert.equal(forced.kind, 'resolved');
    assert.equal(store.getRateLimit('app:demo'), undefined, 'the answer closed the window');
  });

  void test('a window does not stick to an app whose URL changed', async () => {
    sim.fault(apiPath, { rateLimit: { kind: '403-remaining', resetInSeconds: 900 }, times: 1 });
    const store = createMemoryResolverStore();
    limited(await resolveApp(settings(), makeDeps(makeContext(), store)));
    const url = sim.putAsset('/dl/moved.AppImage', Buffer.from('mv'));
    sim.hub.setLatest('acme', 'moved', { tag: 'v2', assets: [{ name: 'moved.AppImage', url }] });
    sim.clearRequests();
    const moved = await resolveApp(
      makeSettings(forge(`${sim.url}/acme/moved`), {
        hub_release_web_url: sim.url,
        hub_release_api_url: sim.hubApiUrl,
      }),
      makeDeps(makeContext(), store),
    );
    assert.equal(moved.kind, 'resolved');
    assert.equal(sim.requests.length, 1);
    assert.equal(store.getRateLimit('app:demo'), undefined);
  });

  void test('respect_rate_limits: false always attempts, and success clears the windows', async () => {
    sim.fault(apiPath, { rateLimit: { kind: '403-remaining', resetInSeconds: 900 }, times: 1 });
    const store = createMemoryResolverStore();
    limited(await resolveApp(settings(), makeDeps(makeContext(), store)));
    sim.clearRequests();
    const outcome = await resolveApp(
      settings({ respect_rate_limits: false }),
      makeDeps(makeContext(), store),
    );
    assert.equal(outcome.kind, 'resolved');
    assert.equal(sim.requests.length, 1);
    assert.equal(store.getRateLimit('app:demo'), undefined);
  });

  void test('once the window has passed the request is sent again', async () => {
    sim.fault(apiPath, { rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 60 }, times: 1 });
    const store = createMemoryResolverStore();
    const ctx = makeContext();
    const first = limited(await resolveApp(settings(), makeDeps(ctx, store)));
    ctx.clock.now = new Date(first.retryAt.getTime() + 1000);
    sim.clearRequests();
    assert.equal((await resolveApp(settings(), makeDeps(ctx, store))).kind, 'resolved');
    assert.equal(sim.requests.length, 1);
  });

  void test('the sim budget running out is detected from its headers', async () => {
    sim.setRateLimit({ limit: 1, windowSeconds: 300 });
    try {
      assert.equal((await resolveApp(settings(), makeDeps())).kind, 'resolved');
      limited(await resolveApp(settings(), makeDeps()));
    } finally {
      sim.setRateLimit(null);
    }
  });
});
