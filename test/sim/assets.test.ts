import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedBytes, startSim, type Sim } from '../../sim/index.js';
import { parseMultipart, raw } from './raw-http.js';

const CONTENT = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');

void describe('assets', () => {
  let sim: Sim;
  let dir: string;
  let url: string;
  before(async () => {
    sim = await startSim();
    dir = await mkdtemp(join(tmpdir(), 'ak-'));
    url = sim.putAsset('/dl/app.AppImage', CONTENT);
  });
  after(async () => {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  });

  void test('GET serves the body with validators and Accept-Ranges', async () => {
    assert.equal(url, `${sim.url}/dl/app.AppImage`);
    const res = await raw(url);
    assert.equal(res.status, 200);
    assert.ok(res.body.equals(CONTENT));
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers['content-length'], String(CONTENT.length));
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.match(res.headers.etag ?? '', /^"[0-9a-f]+"$/);
    assert.ok(res.headers['last-modified']);
  });

  void test('HEAD has the same headers and no body', async () => {
    const get = await raw(url);
    const head = await raw(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], String(CONTENT.length));
    assert.equal(head.headers.etag, get.headers.etag);
  });

  void test('single ranges: closed, open-ended, suffix, clamped', async () => {
    const cases: [string, number, number][] = [
      ['bytes=2-5', 2, 5],
      ['bytes=30-', 30, 35],
      ['bytes=-4', 32, 35],
      ['bytes=10-1000', 10, 35],
      ['bytes=-1000', 0, 35],
    ];
    for (const [range, start, end] of cases) {
      const res = await raw(url, { headers: { range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/${CONTENT.length}`, range);
      assert.ok(res.body.equals(CONTENT.subarray(start, end + 1)), range);
    }
  });

  void test('multiple ranges answer multipart/byteranges', async () => {
    const res = await raw(url, { headers: { range: 'bytes=0-1,10-12,-3' } });
    assert.equal(res.status, 206);
    const type = res.headers['content-type'] ?? '';
    assert.match(type, /^multipart\/byteranges; boundary=/);
    assert.equal(Number(res.headers['content-length']), res.body.length);
    const parts = parseMultipart(res.body, type);
    assert.deepEqual(
      parts.map((p) => [p.range, p.data.toString()]),
      [
        ['bytes 0-1/36', '01'],
        ['bytes 10-12/36', 'abc'],
        ['bytes 33-35/36', 'xyz'],
      ],
    );
  });

  void test('multiple ranges with only one satisfiable answer a plain 206', async () => {
    const res = await raw(url, { headers: { range: 'bytes=100-200,3-4' } });
    assert.equal(res.status, 206);
    assert.equal(res.headers['content-range'], 'bytes 3-4/36');
    assert.equal(res.body.toString(), '34');
  });

  void test('unsatisfiable ranges answer 416 with the size', async () => {
    const res = await raw(url, { headers: { range: 'bytes=36-' } });
    assert.equal(res.status, 416);
    assert.equal(res.headers['content-range'], 'bytes */36');
  });

  void test('malformed Range headers are ignored', async () => {
    for (const range of ['bytes=5-2', 'items=0-1', 'bytes=x-y']) {
      const res = await raw(url, { headers: { range } });
      assert.equal(res.status, 200, range);
      assert.ok(res.body.equals(CONTENT));
    }
  });

  void test('If-Range: matching ETag or date gives 206, anything else the full 200', async () => {
    const { headers } = await raw(url, { method: 'HEAD' });
    const etag = headers.etag ?? '';
    const date = headers['last-modified'] ?? '';
    const match = await raw(url, { headers: { range: 'bytes=0-3', 'if-range': etag } });
    assert.equal(match.status, 206);
    const byDate = await raw(url, { headers: { range: 'bytes=0-3', 'if-range': date } });
    assert.equal(byDate.status, 206);
    const stale = await raw(url, { headers: { range: 'bytes=0-3', 'if-range': '"other"' } });
    assert.equal(stale.status, 200);
    assert.ok(stale.body.equals(CONTENT));
    const weak = await raw(url, { headers: { range: 'bytes=0-3', 'if-range': `W/${etag}` } });
    assert.equal(weak.status, 200);
    const oldDate = await raw(url, {
      headers: { range: 'bytes=0-3', 'if-range': new Date(Date.parse(date) - 60_000).toUTCString() },
    });
    assert.equal(oldDate.status, 200);
  });

  void test('conditional GET and HEAD answer 304', async () => {
    const { headers } = await raw(url, { method: 'HEAD' });
    const etag = headers.etag ?? '';
    for (const method of ['GET', 'HEAD']) {
      const inm = await raw(url, { method, headers: { 'if-none-match': etag } });
      assert.equal(inm.status, 304, method);
      assert.equal(inm.body.length, 0);
      assert.equal(inm.headers.etag, etag);
    }
    assert.equal((await raw(url, { headers: { 'if-none-match': `"x", W/${etag}` } })).status, 304);
    assert.equal((await raw(url, { headers: { 'if-none-match': '"x"' } })).status, 200);
    const later = new Date(Date.now() + 60_000).toUTCString();
    const earlier = new Date(Date.now() - 3_600_000).toUTCString();
    assert.equal((await raw(url, { headers: { 'if-modified-since': later } })).status, 304);
    assert.equal((await raw(url, { headers: { 'if-modified-since': earlier } })).status, 200);
    // If-None-Match wins over If-Modified-Since.
    assert.equal(
      (await raw(url, { headers: { 'if-none-match': '"x"', 'if-modified-since': later } })).status,
      200,
    );
  });

  void test('asset options: explicit etag, no validators, content type', async () => {
    const a = sim.putAsset('/opt/a', Buffer.from('a'), { etag: 'v1', contentType: 'application/zip' });
    const ra = await raw(a);
    assert.equal(ra.headers.etag, '"v1"');
    assert.equal(ra.headers['content-type'], 'application/zip');
    const when = new Date('2024-01-02T03:04:05Z');
    const b = sim.putAsset('opt/b', Buffer.from('b'), { etag: false, lastModified: when });
    const rb = await raw(b);
    assert.equal(rb.headers.etag, undefined);
    assert.equal(rb.headers['last-modified'], when.toUTCString());
    const c = sim.putAsset('/opt/c', Buffer.from('c'), { lastModified: false });
    assert.equal((await raw(c)).headers['last-modified'], undefined);
  });

  void test('a file asset streams from disk and its ETag follows the file', async () => {
    const file = join(dir, 'asset.bin');
    await writeFile(file, 'first version');
    const fileUrl = sim.putAsset('/file.bin', { file });
    const one = await raw(fileUrl);
    assert.equal(one.body.toString(), 'first version');
    const part = await raw(fileUrl, { headers: { range: 'bytes=6-12' } });
    assert.equal(part.body.toString(), 'version');
    await writeFile(file, 'second, longer version');
    const two = await raw(fileUrl);
    assert.equal(two.body.toString(), 'second, longer version');
    assert.notEqual(two.headers.etag, one.headers.etag);
    await rm(file);
    assert.equal((await raw(fileUrl)).status, 404);
  });

  void test('a generated asset serves generatedBytes, ranges included', async () => {
    const size = 3 * 65536 + 17;
    const genUrl = sim.putAsset('/gen.bin', { size, seed: 5 });
    const whole = await raw(genUrl);
    assert.equal(whole.body.length, size);
    assert.ok(whole.body.equals(generatedBytes(5, 0, size)));
    const part = await raw(genUrl, { headers: { range: 'bytes=65530-131080' } });
    assert.ok(part.body.equals(generatedBytes(5, 65530, 131081)));
    const multi = await raw(genUrl, { headers: { range: 'bytes=0-9,150000-150009' } });
    const parts = parseMultipart(multi.body, multi.headers['content-type'] ?? '');
    assert.ok(parts[1]?.data.equals(generatedBytes(5, 150000, 150010)));
  });

  void test('second origin, redirects and removal', async () => {
    const second = sim.putSecondAsset('/cdn/app', Buffer.from('from second'));
    assert.ok(second.startsWith(sim.secondUrl));
    assert.notEqual(sim.secondUrl, sim.url);
    assert.equal((await raw(`${sim.url}/cdn/app`)).status, 404);
    sim.redirect('/latest/app', second, 307);
    const hop = await raw(`${sim.url}/latest/app`);
    assert.equal(hop.status, 307);
    assert.equal(hop.headers.location, second);
    assert.equal((await raw(hop.headers.location ?? '')).body.toString(), 'from second');
    sim.redirect('/latest/default', second);
    assert.equal((await raw(`${sim.url}/latest/default`)).status, 302);
    sim.redirectSecond('/back', url);
    assert.equal((await raw(`${sim.secondUrl}/back`)).headers.location, url);
    sim.removeAsset('/latest/app');
    assert.equal((await raw(`${sim.url}/latest/app`)).status, 404);
    sim.removeSecondAsset('/cdn/app');
    assert.equal((await raw(second)).status, 404);
  });

  void test('every request is recorded with origin, method, raw path and headers', async () => {
    sim.clearRequests();
    await raw(`${url}?x=1`, { headers: { 'x-probe': 'yes' } });
    await raw(`${sim.secondUrl}/nothing`, { method: 'HEAD' });
    assert.equal(sim.requests.length, 2);
    assert.deepEqual(
      sim.requests.map((r) => [r.origin, r.method, r.path]),
      [
        ['main', 'GET', '/dl/app.AppImage?x=1'],
        ['second', 'HEAD', '/nothing'],
      ],
    );
    assert.equal(sim.requests[0]?.headers['x-probe'], 'yes');
    sim.clearRequests();
    assert.equal(sim.requests.length, 0);
  });

  void test('methods other than GET and HEAD are refused', async () => {
    const res = await raw(url, { method: 'DELETE' });
    assert.equal(res.status, 405);
  });
});
