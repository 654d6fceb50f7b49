import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSim } from '../../helpers/sim-suite.js';
import { startSim } from '../../../sim/index.js';
import { KeeperError } from '../../../src/core/errors.js';
import { request } from '../../../src/http/http.js';
import { createHttpSettings } from '../../../src/http/settings.js';
import { header } from '../support.js';

const http = createHttpSettings();

void describe('metadata HTTP client', () => {
  const sim = useSim('nothing');

  void test('sends the User-Agent and returns status, headers and body', async () => {
    sim.clearRequests();
    const url = sim.putAsset('/ua.txt', Buffer.from('hello'));
    const res = await request(http, url);
    assert.equal(res.status, 200);
    assert.equal(res.text, 'hello');
    assert.ok(res.headers.etag);
    assert.match(header(sim.requests[0]?.headers ?? {}, 'user-agent') ?? '', /^appimage-keeper\//);
  });

  void test('Authorization survives a same-origin redirect and is dropped across origins', async () => {
    const target = sim.putSecondAsset('/other/file.bin', Buffer.from('x'));
    sim.putAsset('/same/final.bin', Buffer.from('y'));
    sim.redirect('/same/start', `${sim.url}/same/final.bin`);
    sim.redirect('/cross/start', target, 302);
    sim.clearRequests();

    const same = await request(http, `${sim.url}/same/start`, { headers: { Authorization: 'Bearer t' } });
    assert.equal(same.url, `${sim.url}/same/final.bin`);
    const cross = await request(http, `${sim.url}/cross/start`, { headers: { Authorization: 'Bearer t' } });
    assert.equal(cross.status, 200);
    assert.equal(cross.url, target);
    assert.equal(cross.requests, 2);

    const byPath = new Map(sim.requests.map((r) => [r.path, r]));
    assert.equal(header(byPath.get('/same/final.bin')?.headers ?? {}, 'authorization'), 'Bearer t');
    assert.equal(header(byPath.get('/cross/start')?.headers ?? {}, 'authorization'), 'Bearer t');
    const crossed = byPath.get('/other/file.bin');
    assert.ok(crossed, 'the redirect target was requested');
    assert.equal(header(crossed.headers, 'authorization'), undefined);
  });

  void test('a redirect back to the first origin does not get the header back', async () => {
    sim.putAsset('/loop/end.bin', Buffer.from('z'));
    sim.redirectSecond('/bounce', `${sim.url}/loop/end.bin`);
    sim.redirect('/loop/start', `${sim.secondUrl}/bounce`);
    sim.clearRequests();
    await request(http, `${sim.url}/loop/start`, { headers: { authorization: 'Bearer t' } });
    const end = sim.requests.find((r) => r.path === '/loop/end.bin');
    assert.ok(end);
    assert.equal(header(end.headers, 'authorization'), undefined);
  });

  void test('maxRedirects 0 returns the redirect itself', async () => {
    sim.redirect('/r0', `${sim.url}/ua.txt`, 307);
    const res = await request(http, `${sim.url}/r0`, { maxRedirects: 0 });
    assert.equal(res.status, 307);
    assert.equal(res.headers.location, `${sim.url}/ua.txt`);
  });

  void test('a 5xx on GET is retried, a 403 is not', async () => {
    const url = sim.putAsset('/flaky.txt', Buffer.from('ok'));
    sim.fault('/flaky.txt', { status: 503, times: 1 });
    const res = await request(http, url);
    assert.equal(res.status, 200);
    assert.equal(res.requests, 2);

    sim.fault('/forbidden.txt', { status: 403, times: 1 });
    const denied = await request(http, `${sim.url}/forbidden.txt`);
    assert.equal(denied.status, 403);
    assert.equal(denied.requests, 1);
  });

  void test('a request slower than its deadline fails with HTTP_TIMEOUT', async () => {
    const url = sim.putAsset('/slow.txt', Buffer.from('late'));
    sim.fault('/slow.txt', { latencyMs: 2000, times: 1 });
    await assert.rejects(
      request(http, url, { timeoutMs: 200 }),
      (err: unknown) => err instanceof KeeperError && err.code === 'HTTP_TIMEOUT',
    );
  });

  void test('a refused connection is a network error after the retries', async () => {
    const stopped = await startSim();
    const url = stopped.putAsset('/gone', Buffer.from('x'));
    await stopped.stop();
    await assert.rejects(
      request(http, url, { retries: 1 }),
      (err: unknown) => err instanceof KeeperError && err.code === 'HTTP_NETWORK',
    );
  });

  void test('oversized bodies are refused', async () => {
    const url = sim.putAsset('/big.bin', { size: 300_000, seed: 1 });
    await assert.rejects(
      request(http, url, { maxBodyBytes: 1000 }),
      (err: unknown) => err instanceof KeeperError && err.code === 'HTTP_BODY_TOO_LARGE',
    );
    const probed = await request(http, url, { discardBody: true });
    assert.equal(probed.status, 200);
    assert.equal(probed.text, '');
  });

  void test('json() names the URL when the body is not JSON', async () => {
    const url = sim.putAsset('/page.txt', Buffer.from('not json: a plain text answer'));
    const res = await request(http, url);
    assert.throws(
      () => res.json(),
      (err: unknown) => err instanceof KeeperError && err.code === 'HTTP_BAD_JSON',
    );
  });
});
