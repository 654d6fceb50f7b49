import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, type Sim } from '../../sim/index.js';
import { raw } from './raw-http.js';

void describe('hub rate-limit budget', () => {
  let sim: Sim;
  let api: string;
  before(async () => {
    sim = await startSim();
    sim.hub.setLatest('o', 'r', { tag: 'v1', assets: [] });
    api = `${sim.url}/repos/o/r/releases/latest`;
  });
  after(() => sim.stop());

  void test('without a budget no rate-limit headers are sent', async () => {
    const res = await raw(api);
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
  });

  void test('counts requests, skips 304s, then answers 403 with remaining 0', async () => {
    sim.setRateLimit({ limit: 2, windowSeconds: 600 });
    const now = Math.floor(Date.now() / 1000);
    const first = await raw(api);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '2');
    assert.equal(first.headers['x-ratelimit-remaining'], '1');
    const reset = Number(first.headers['x-ratelimit-reset']);
    assert.ok(reset >= now + 599 && reset <= now + 602);

    const notModified = await raw(api, { headers: { 'if-none-match': first.headers.etag ?? '' } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers['x-ratelimit-remaining'], '1');

    const second = await raw(api);
    assert.equal(second.headers['x-ratelimit-remaining'], '0');
    const limited = await raw(api);
    assert.equal(limited.status, 403);
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.equal(Number(limited.headers['x-ratelimit-reset']), reset);
    assert.match(limited.body.toString(), /rate limit exceeded/);

    // Assets and other forges are not part of the hub budget.
    const asset = sim.putAsset('/a', Buffer.from('a'));
    assert.equal((await raw(asset)).status, 200);
  });

  void test('a token has its own, larger budget; the second origin and the proxy have their own', async () => {
    sim.setRateLimit({ limit: 1, windowSeconds: 600, authLimit: 3 });
    assert.equal((await raw(api)).status, 200);
    assert.equal((await raw(api)).status, 403);
    const authed = await raw(api, { headers: { authorization: 'Bearer abc' } });
    assert.equal(authed.status, 200);
    assert.equal(authed.headers['x-ratelimit-limit'], '3');
    assert.equal(authed.headers['x-ratelimit-remaining'], '2');
    assert.equal((await raw(`${sim.secondUrl}/repos/o/r/releases/latest`)).status, 200);
    assert.equal((await raw(`${sim.proxyPrefix()}${api}`)).status, 200);
    assert.equal((await raw(`${sim.proxyPrefix()}${api}`)).status, 403);
  });

  void test('the default token budget is ten times the anonymous one; reset refills, null disables', async () => {
    sim.setRateLimit({ limit: 5, windowSeconds: 60 });
    const authed = await raw(api, { headers: { authorization: 'token x' } });
    assert.equal(authed.headers['x-ratelimit-limit'], '50');
    for (let i = 0; i < 5; i += 1) await raw(api);
    assert.equal((await raw(api)).status, 403);
    sim.resetRateLimit();
    assert.equal((await raw(api)).status, 200);
    sim.setRateLimit(null);
    const off = await raw(api);
    assert.equal(off.status, 200);
    assert.equal(off.headers['x-ratelimit-limit'], undefined);
  });
});
