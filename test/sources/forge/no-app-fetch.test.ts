/**
 * A forge fetch that belongs to no app (add's and adopt's lookups) uses the URL-keyed
 * conditional cache but never touches per-app rate-limit windows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import type { AppSettings } from '../../../src/config/types.js';
import { createMemoryResolverStore } from '../../../src/sources/memory-store.js';
import { resolveApp } from '../../../src/sources/resolve.js';
import { forge, makeContext, makeDeps, makeSettings } from '../support.js';

void describe('a forge fetch for no app', () => {
  let sim: Sim;
  let settings: AppSettings;
  const apiPath = /^\/repos\/acme\/noapp\/releases\/latest/;
  before(async () => {
    sim = await startSim();
    const url = sim.putAsset('/dl/noapp.AppImage', Buffer.from('na'));
    sim.hub.setLatest('acme', 'noapp', { tag: 'v1', assets: [{ name: 'noapp.AppImage', url }] });
    settings = makeSettings(forge(`${sim.url}/acme/noapp`), {
      hub_release_web_url: sim.url,
      hub_release_api_url: sim.hubApiUrl,
    });
  });
  after(async () => {
    await sim.stop();
  });

  void test('a rate limit opens no window, and an open window of the same name is not honoured', async () => {
    const store = createMemoryResolverStore();
    const key = `app:${settings.name}`;
    sim.fault(apiPath, { rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 900 }, times: 1 });
    const limited = await resolveApp(settings, makeDeps(makeContext(), store, { appWindows: false }));
    assert.equal(limited.kind, 'rate_limited');
    assert.equal(store.getRateLimit(key), undefined);

    const apiUrl = `${sim.hubApiUrl}/repos/acme/noapp/releases/latest`;
    store.setRateLimit(key, {
      until: new Date(Date.now() + 3_600_000).toISOString(),
      message: 'm',
      url: apiUrl,
    });
    sim.clearRequests();
    const resolved = await resolveApp(settings, makeDeps(makeContext(), store, { appWindows: false }));
    assert.equal(resolved.kind, 'resolved');
    assert.equal(sim.requests.filter((r) => apiPath.test(r.path)).length, 1);
    assert.equal(store.getRateLimit(key)?.message, 'm', "the app's own window is left as it was");
  });

  void test('the conditional cache still applies: the second fetch is answered 304 from the cache', async () => {
    const store = createMemoryResolverStore();
    const first = await resolveApp(settings, makeDeps(makeContext(), store, { appWindows: false }));
    assert.equal(first.kind === 'resolved' && first.notModified, false);
    sim.clearRequests();
    const second = await resolveApp(settings, makeDeps(makeContext(), store, { appWindows: false }));
    assert.equal(second.kind === 'resolved' && second.notModified, true);
    const sent = sim.requests.find((r) => apiPath.test(r.path));
    assert.ok(sent?.headers['if-none-match'], 'the cached ETag was sent');
  });
});
