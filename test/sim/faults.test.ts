import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { startSim, type Sim } from '../../sim/index.js';
import { json, parseMultipart, raw } from './raw-http.js';

/** Reads until `expected` bytes arrived, waits a little longer, then reports and hangs up. */
function stalledRead(
  url: string,
  expected: number,
): Promise<{ bytes: number; ended: boolean; closed: boolean }> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let ended = false;
    let closed = false;
    const req = request(url, { agent: false }, (res) => {
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes >= expected) {
          setTimeout(() => {
            resolve({ bytes, ended, closed });
            req.destroy();
          }, 200);
        }
      });
      res.on('end', () => (ended = true));
      res.on('close', () => (closed = true));
    });
    req.on('error', reject);
    req.end();
  });
}

const BODY = Buffer.from('abcdefghijklmnopqrstuvwxyz0123456789'.repeat(100));

void describe('faults', () => {
  let sim: Sim;
  let url: string;
  before(async () => {
    sim = await startSim();
    url = sim.putAsset('/f/app.AppImage', BODY);
    sim.hub.setLatest('o', 'r', { tag: 'v1', assets: [] });
  });
  beforeEach(() => sim.clearFaults());
  after(() => sim.stop());

  void test('status replaces the answer; times limits it; clearFaults removes it', async () => {
    sim.fault('/f/app.AppImage', { status: 503, times: 2 });
    assert.equal((await raw(url)).status, 503);
    assert.equal((await raw(url)).status, 503);
    assert.equal((await raw(url)).status, 200);
    sim.fault(/^\/f\//, { status: 500 });
    assert.equal((await raw(url)).status, 500);
    sim.clearFaults();
    assert.equal((await raw(url)).status, 200);
  });

  void test('methods restricts a fault; string patterns match with or without the query', async () => {
    sim.fault('/f/app.AppImage', { status: 502, methods: ['head'] });
    assert.equal((await raw(url)).status, 200);
    assert.equal((await raw(url, { method: 'HEAD' })).status, 502);
    assert.equal((await raw(`${url}?a=b`, { method: 'HEAD' })).status, 502);
    assert.equal((await raw(`${url}x`, { method: 'HEAD' })).status, 404);
  });

  void test('latencyMs delays the answer but still serves it', async () => {
    sim.fault('/f/app.AppImage', { latencyMs: 50, times: 1 });
    const started = Date.now();
    const res = await raw(url);
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(BODY));
    assert.ok(Date.now() - started >= 45);
  });

  void test('throttleBytesPerSec still delivers every byte', async () => {
    sim.fault('/f/app.AppImage', { throttleBytesPerSec: 20_000, times: 1 });
    const res = await raw(url);
    assert.equal(res.status, 200);
    assert.ok(res.complete);
    assert.ok(res.body.equals(BODY));
  });

  void test('rateLimit kinds carry the headers a client needs', async () => {
    const api = `${sim.url}/repos/o/r/releases/latest`;
    const before = Math.floor(Date.now() / 1000);
    sim.fault('/repos/o/r/releases/latest', {
      times: 1,
      rateLimit: { kind: '403-remaining', resetInSeconds: 120 },
    });
    const r403 = await raw(api);
    assert.equal(r403.status, 403);
    assert.equal(r403.headers['x-ratelimit-remaining'], '0');
    const reset = Number(r403.headers['x-ratelimit-reset']);
    assert.ok(reset >= before + 120 && reset <= before + 122);

    sim.fault('/repos/o/r/releases/latest', {
      times: 1,
      rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 30 },
    });
    const r429s = await raw(api);
    assert.equal(r429s.status, 429);
    assert.equal(r429s.headers['retry-after'], '30');

    sim.fault('/repos/o/r/releases/latest', {
      times: 1,
      rateLimit: { kind: '429-retry-after-date', resetInSeconds: 600 },
    });
    const r429d = await raw(api);
    assert.equal(r429d.status, 429);
    const when = Date.parse(r429d.headers['retry-after'] ?? '');
    assert.ok(when >= (before + 599) * 1000 && when <= (before + 602) * 1000);

    sim.fault('/repos/o/r/releases/latest', {
      times: 1,
      rateLimit: { kind: '429-ratelimit-reset', resetInSeconds: 60 },
    });
    const r429r = await raw(api);
    assert.equal(r429r.status, 429);
    assert.equal(r429r.headers['ratelimit-remaining'], '0');
    assert.ok(Number(r429r.headers['ratelimit-reset']) >= before + 60);
    assert.equal(r429r.headers['retry-after'], undefined);

    assert.equal((await raw(api)).status, 200);
  });

  void test('dropAfterBytes cuts the connection after exactly that many body bytes', async () => {
    sim.fault('/f/app.AppImage', { dropAfterBytes: 1000, times: 1 });
    const res = await raw(url);
    assert.equal(res.status, 200);
    assert.equal(res.complete, false);
    assert.equal(res.body.length, 1000);
    assert.ok(res.body.equals(BODY.subarray(0, 1000)));
  });

  void test('dropAfterBytes 0 sends the head only', async () => {
    sim.fault('/f/app.AppImage', { dropAfterBytes: 0, times: 1 });
    const res = await raw(url);
    assert.equal(res.status, 200);
    assert.equal(res.complete, false);
    assert.equal(res.body.length, 0);
  });

  void test('stallAfterBytes sends that many bytes and then nothing while the socket stays open', async () => {
    sim.fault('/f/app.AppImage', { stallAfterBytes: 500, times: 1 });
    const res = await stalledRead(url, 500);
    assert.equal(res.bytes, 500);
    assert.equal(res.ended, false);
    assert.equal(res.closed, false);
  });

  void test('shortBody ends the response early, below Content-Length', async () => {
    sim.fault('/f/app.AppImage', { shortBody: 10, times: 1 });
    const res = await raw(url);
    assert.equal(res.headers['content-length'], String(BODY.length));
    assert.equal(res.complete, false);
    assert.equal(res.body.length, BODY.length - 10);
  });

  void test(
    'shortBody also ends a keep-alive connection, so the client is not left waiting',
    { timeout: 20_000 },
    async () => {
      sim.fault('/f/app.AppImage', { shortBody: 5, times: 1 });
      const agent = new Agent({ keepAlive: true });
      try {
        const outcome = await new Promise<{ bytes: number; complete: boolean }>((resolve, reject) => {
          const req = request(url, { agent }, (res) => {
            let bytes = 0;
            res.on('data', (c: Buffer) => (bytes += c.length));
            res.on('close', () => resolve({ bytes, complete: res.complete }));
            res.on('error', () => undefined);
          });
          req.on('error', reject);
          req.end();
        });
        assert.equal(outcome.complete, false);
        assert.equal(outcome.bytes, BODY.length - 5);
      } finally {
        agent.destroy();
      }
    },
  );

  void test('ignoreRange answers 200 with the full body but keeps Accept-Ranges', async () => {
    sim.fault('/f/app.AppImage', { ignoreRange: true, times: 1 });
    const res = await raw(url, { headers: { range: 'bytes=0-9' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.ok(res.body.equals(BODY));
  });

  void test('noRanges drops Accept-Ranges and ignores Range', async () => {
    sim.fault('/f/app.AppImage', { noRanges: true });
    const head = await raw(url, { method: 'HEAD' });
    assert.equal(head.headers['accept-ranges'], undefined);
    const res = await raw(url, { headers: { range: 'bytes=0-9' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, BODY.length);
  });

  void test('firstRangeOnly answers a multi-range request with its first range alone', async () => {
    sim.fault('/f/app.AppImage', { firstRangeOnly: true, times: 1 });
    const res = await raw(url, { headers: { range: 'bytes=10-19,100-109' } });
    assert.equal(res.status, 206);
    assert.equal(res.headers['content-range'], `bytes 10-19/${BODY.length}`);
    assert.ok(res.body.equals(BODY.subarray(10, 20)));
  });

  void test('wrongContentRange announces a range other than the one requested', async () => {
    sim.fault('/f/app.AppImage', { wrongContentRange: true });
    const res = await raw(url, { headers: { range: 'bytes=100-199' } });
    assert.equal(res.status, 206);
    assert.notEqual(res.headers['content-range'], `bytes 100-199/${BODY.length}`);
    assert.match(res.headers['content-range'] ?? '', /^bytes \d+-\d+\/\d+$/);
    const multi = await raw(url, { headers: { range: 'bytes=0-9,50-59' } });
    const parts = parseMultipart(multi.body, multi.headers['content-type'] ?? '');
    assert.deepEqual(
      parts.map((p) => p.range),
      [`bytes 1-10/${BODY.length}`, `bytes 51-60/${BODY.length}`],
    );
    const tail = await raw(url, { headers: { range: `bytes=${BODY.length - 10}-` } });
    assert.notEqual(
      tail.headers['content-range'],
      `bytes ${BODY.length - 10}-${BODY.length - 1}/${BODY.length}`,
    );
  });

  void test('headRefused answers HEAD with 405 and leaves GET alone', async () => {
    sim.fault('/f/app.AppImage', { headRefused: true });
    assert.equal((await raw(url, { method: 'HEAD' })).status, 405);
    const get = await raw(url, { headers: { range: 'bytes=0-0' } });
    assert.equal(get.status, 206);
    assert.equal(get.body.toString(), 'a');
  });

  void test('body replaces the content, with its content type, on any path', async () => {
    sim.fault('/f/app.AppImage', { body: '<html>login</html>', times: 1 });
    const html = await raw(url);
    assert.equal(html.status, 200);
    assert.equal(html.body.toString(), '<html>login</html>');
    assert.match(html.headers['content-type'] ?? '', /^text\/html/);
    sim.fault('/repos/o/r/releases/latest', {
      status: 500,
      body: '{"oops":1}',
      contentType: 'application/json',
    });
    const api = await json(`${sim.url}/repos/o/r/releases/latest`);
    assert.equal(api.status, 500);
    assert.deepEqual(api.body, { oops: 1 });
  });

  void test('faults apply on the second origin too and match the API paths', async () => {
    const second = sim.putSecondAsset('/s/file', Buffer.from('second'));
    sim.fault('/s/file', { status: 404 });
    assert.equal((await raw(second)).status, 404);
  });
});
