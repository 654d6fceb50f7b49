import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createHostLimiter } from '../../../src/transfer/download/index.js';
import { withoutCredentials } from '../../../src/http/url-scope.js';
import { parseContentRange } from '../../../src/transfer/ranges/content-range.js';
import {
  acceptsByteRanges,
  contentLength,
  rangeValidator,
  retryAfterMs,
} from '../../../src/transfer/download/response-headers.js';
import {
  contiguousEnd,
  initialSegments,
  stealWork,
  type Segment,
} from '../../../src/transfer/download/segment-plan.js';

void describe('segment plan', () => {
  void test('initial segments tile the file and respect the minimum size', () => {
    const size = 10 * 1024 * 1024 + 3;
    const segs = initialSegments(size, 4, 1024 * 1024);
    assert.equal(segs.length, 4);
    assert.equal(segs[0]?.start, 0);
    assert.equal(segs.at(-1)?.end, size);
    for (let i = 1; i < segs.length; i++) assert.equal(segs[i]?.start, segs[i - 1]?.end);
    assert.equal(initialSegments(3 * 1024 * 1024, 8, 1024 * 1024).length, 3);
    assert.equal(initialSegments(100, 4, 1024).length, 1);
  });

  void test('contiguousEnd stops at the first gap', () => {
    const segs: Segment[] = [
      { start: 0, end: 10, received: 10, written: 10 },
      { start: 10, end: 20, received: 15, written: 14 },
      { start: 20, end: 30, received: 30, written: 30 },
    ];
    assert.equal(contiguousEnd(segs), 14);
    const second = segs[1];
    assert.ok(second);
    second.written = 20;
    assert.equal(contiguousEnd(segs), 30);
  });

  void test('stealWork halves the largest remainder and refuses tiny ones', () => {
    const mib = 1024 * 1024;
    const segs: Segment[] = [
      { start: 0, end: 4 * mib, received: 4 * mib, written: 4 * mib },
      { start: 4 * mib, end: 8 * mib, received: 5 * mib, written: 5 * mib },
      { start: 8 * mib, end: 12 * mib, received: 11 * mib, written: 11 * mib },
    ];
    const stolen = stealWork(segs, mib / 2);
    assert.deepEqual(stolen, { start: 6.5 * mib, end: 8 * mib, received: 6.5 * mib, written: 6.5 * mib });
    assert.equal(segs[1]?.end, 6.5 * mib);
    assert.equal(segs[2], stolen, 'inserted in order');
    assert.equal(contiguousEnd(segs), 5 * mib);
    // What is left everywhere is now at most 1.5 MiB: below 2 x 1 MiB, nothing to steal.
    assert.equal(stealWork(segs, mib), undefined);
  });
});

void describe('response headers', () => {
  void test('Content-Length, ignoring encoded bodies', () => {
    assert.equal(contentLength({ 'content-length': '42' }), 42);
    assert.equal(contentLength({ 'content-length': '42', 'content-encoding': 'gzip' }), undefined);
    assert.equal(contentLength({ 'content-length': 'x' }), undefined);
    assert.equal(contentLength({}), undefined);
  });

  void test('Content-Range parsing', () => {
    assert.deepEqual(parseContentRange('bytes 0-99/1000'), { first: 0, last: 99, total: 1000 });
    assert.deepEqual(parseContentRange('bytes 5-9/*'), { first: 5, last: 9, total: undefined });
    assert.equal(parseContentRange('bytes 9-5/10'), undefined);
    assert.equal(parseContentRange('items 0-1/2'), undefined);
    assert.equal(parseContentRange(undefined), undefined);
  });

  void test('Content-Range numbers are bounded and a range must lie inside its total', () => {
    // A number of 17 digits or more is refused, not read as some rounded double.
    assert.equal(parseContentRange('bytes 0-12345678901234567/*'), undefined);
    assert.deepEqual(parseContentRange('bytes 0-999999999999998/999999999999999'), {
      first: 0,
      last: 999999999999998,
      total: 999999999999999,
    });
    assert.equal(parseContentRange('bytes 0-10/10'), undefined);
  });

  void test('range support and validator choice', () => {
    assert.equal(acceptsByteRanges({ 'accept-ranges': 'bytes' }), true);
    assert.equal(acceptsByteRanges({ 'accept-ranges': 'none' }), false);
    assert.equal(acceptsByteRanges({}), false);
    assert.equal(rangeValidator({ etag: '"abc"', 'last-modified': 'x' }), '"abc"');
    assert.equal(
      rangeValidator({ etag: 'W/"abc"', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT' }),
      'Mon, 01 Jan 2024 00:00:00 GMT',
    );
    assert.equal(rangeValidator({}), undefined);
  });

  void test('Retry-After in seconds and as a date', () => {
    assert.equal(retryAfterMs({ 'retry-after': '3' }), 3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, now), 10_000);
    assert.equal(retryAfterMs({ 'retry-after': 'soon' }), undefined);
  });

  void test('Authorization, Proxy-Authorization and Cookie are never sent', () => {
    assert.deepEqual(
      withoutCredentials({ Authorization: 'x', 'proxy-authorization': 'y', cookie: 'c', accept: '*/*' }),
      {
        accept: '*/*',
      },
    );
  });
});

void describe('host limiter', () => {
  void test('at most perHost tasks run at once per host; other hosts are independent', async () => {
    const limit = createHostLimiter(2);
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const gates: (() => void)[] = [];
    const task = (url: string) =>
      limit(url, async () => {
        const host = new URL(url).host;
        running.set(host, (running.get(host) ?? 0) + 1);
        peak.set(host, Math.max(peak.get(host) ?? 0, running.get(host) ?? 0));
        await new Promise<void>((resolve) => gates.push(resolve));
        running.set(host, (running.get(host) ?? 0) - 1);
        return url;
      });
    const all = [
      task('http://127.0.0.1:1/a'),
      task('http://127.0.0.1:1/b'),
      task('http://127.0.0.1:1/c'),
      task('http://127.0.0.1:1/d'),
      task('http://127.0.0.1:2/e'),
    ];
    // Release tasks one by one until all are done.
    while (gates.length > 0 || [...running.values()].some((n) => n > 0)) {
      await new Promise((r) => setImmediate(r));
      gates.shift()?.();
    }
    assert.deepEqual(await Promise.all(all), [
      'http://127.0.0.1:1/a',
      'http://127.0.0.1:1/b',
      'http://127.0.0.1:1/c',
      'http://127.0.0.1:1/d',
      'http://127.0.0.1:2/e',
    ]);
    assert.equal(peak.get('127.0.0.1:1'), 2);
    assert.equal(peak.get('127.0.0.1:2'), 1);
  });

  void test('a failing task frees its slot', async () => {
    const limit = createHostLimiter(1);
    await assert.rejects(
      limit('http://127.0.0.1:1/x', () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(await limit('http://127.0.0.1:1/y', () => Promise.resolve(7)), 7);
  });
});
