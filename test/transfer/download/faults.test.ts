import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generatedSha256 } from '../../../sim/index.js';
import { download } from '../../../src/transfer/download/index.js';
import { initialSegments } from '../../../src/transfer/download/segment-plan.js';
import { fileSha256, listDir, rangesFor, removeTestTemps, request, setUp, type Bench } from './helpers.js';

const SIZE = 2 * 1024 * 1024 + 4099;
const SEED = 23;
const PATH = '/dl/app.AppImage';

void describe('download: faults, retries and resume', () => {
  let b: Bench;
  let url: string;
  const want = generatedSha256(SIZE, SEED);

  before(async () => {
    b = await setUp();
    url = b.sim.putAsset(PATH, { size: SIZE, seed: SEED });
  });
  after(async () => b.close());

  const fresh = (): void => {
    b.sim.clearFaults();
    b.sim.clearRequests();
  };
  const done = async (): Promise<void> => {
    b.sim.clearFaults();
    await removeTestTemps(b.dir);
  };

  void test('plain: connection dropped mid-body, then resumed from the bytes on disk', async () => {
    fresh();
    b.sim.fault(PATH, { dropAfterBytes: 700_000, times: 1 });
    try {
      const r = await download(request(b.dir, url));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.equal(r.retries, 1);
      const ranges = rangesFor(b.sim, PATH);
      assert.equal(ranges.length, 1);
      const from = Number(/^bytes=(\d+)-$/.exec(ranges[0] ?? '')?.[1]);
      assert.ok(from > 0 && from <= 700_000, `resumed from ${from}`);
      const resume = b.sim.requests.find((q) => q.headers.range !== undefined);
      assert.ok(resume?.headers['if-range'], 'resume carries If-Range');
    } finally {
      await done();
    }
  });

  void test('segmented: a dropped segment resumes where it stopped', async () => {
    fresh();
    // Only ranged requests are cut, after 100 kB each, once for each of two of them.
    b.sim.fault(PATH, { dropAfterBytes: 100_000, times: 2 });
    try {
      const r = await download(request(b.dir, url, { segmented: true }));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.equal(r.segmented, true);
      assert.ok(r.retries >= 2, `retries ${r.retries}`);
      const ranges = rangesFor(b.sim, PATH).map((h) => Number(/bytes=(\d+)-/.exec(h)?.[1]));
      // A resumed range starts inside a segment, not at a segment boundary the plan made.
      assert.ok(
        ranges.some((start) => start % (64 * 1024) !== 0),
        `some request resumes mid-segment: ${ranges.join(', ')}`,
      );
    } finally {
      await done();
    }
  });

  void test('segmented: the probe connection dies right away (before its body is read)', async () => {
    fresh();
    b.sim.fault(PATH, { dropAfterBytes: 1000, times: 1 });
    try {
      const r = await download(request(b.dir, url, { segmented: true, stallTimeoutMs: 2_000 }));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.equal(r.retries, 1);
    } finally {
      await done();
    }
  });

  void test('work stealing: idle connections take over the tail of a slow segment', async () => {
    fresh();
    // Only the first request (the probe, which serves segment 0) is slow.
    b.sim.fault(PATH, { throttleBytesPerSec: 256 * 1024, times: 1 });
    try {
      const r = await download(request(b.dir, url, { segmented: true, connections: 4 }));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      const starts = rangesFor(b.sim, PATH).map((h) => Number(/bytes=(\d+)-/.exec(h)?.[1]));
      // Segment 0 (served by the slow probe) ends here; a range starting inside it was stolen.
      const seg0End = initialSegments(SIZE, 4, 256 * 1024)[0]?.end ?? 0;
      assert.ok(
        starts.some((s) => s > 0 && s < seg0End),
        `a range inside [0, ${seg0End}) was requested: ${starts.join(', ')}`,
      );
      assert.ok(r.retries === 0);
    } finally {
      await done();
    }
  });

  void test('range ignored (200 with the full body): segmented falls back to one plain GET', async () => {
    fresh();
    b.sim.fault(PATH, { ignoreRange: true });
    try {
      const r = await download(request(b.dir, url, { segmented: true }));
      assert.equal(r.segmented, false);
      assert.equal(r.connections, 1);
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
    } finally {
      await done();
    }
  });

  void test('range ignored on resume: the plain download restarts from byte 0', async () => {
    fresh();
    b.sim.fault(PATH, { dropAfterBytes: 500_000, times: 1 });
    b.sim.fault(PATH, { ignoreRange: true });
    try {
      const r = await download(request(b.dir, url));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.equal(r.size, SIZE);
    } finally {
      await done();
    }
  });

  void test('no Accept-Ranges: segmented is not attempted', async () => {
    fresh();
    b.sim.fault(PATH, { noRanges: true });
    try {
      const r = await download(request(b.dir, url, { segmented: true }));
      assert.equal(r.segmented, false);
      assert.equal(r.sha256, want);
      assert.deepEqual(rangesFor(b.sim, PATH), []);
    } finally {
      await done();
    }
  });

  void test('wrong Content-Range: segments are refused and a plain GET gets the right bytes', async () => {
    fresh();
    b.sim.fault(PATH, { wrongContentRange: true });
    try {
      const r = await download(request(b.dir, url, { segmented: true }));
      assert.equal(r.segmented, false);
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
    } finally {
      await done();
    }
  });

  void test('wrong Content-Range on a plain resume: ranges are abandoned and the file restarts', async () => {
    fresh();
    b.sim.fault(PATH, { dropAfterBytes: 300_000, times: 1 });
    b.sim.fault(PATH, { wrongContentRange: true });
    try {
      const r = await download(request(b.dir, url));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.equal(r.retries, 2);
    } finally {
      await done();
    }
  });

  void test('short body every time: DOWNLOAD_SHORT naming the URL, no temp file left', async () => {
    fresh();
    b.sim.fault(PATH, { shortBody: 1000 });
    try {
      await assert.rejects(
        download(request(b.dir, url, { maxRetries: 2 })),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'DOWNLOAD_SHORT');
          assert.ok(err.message.includes(url), err.message);
          return true;
        },
      );
      assert.deepEqual(await listDir(b.dir), []);
    } finally {
      await done();
    }
  });

  void test('short body once: detected and resumed', async () => {
    fresh();
    b.sim.fault(PATH, { shortBody: 5000, times: 1 });
    try {
      const r = await download(request(b.dir, url));
      assert.equal(r.sha256, want);
      assert.equal(r.retries, 1);
      // Resumed, not restarted: one Range request from a point after the start.
      const ranges = rangesFor(b.sim, PATH);
      assert.equal(ranges.length, 1);
      const from = Number(/^bytes=(\d+)-$/.exec(ranges[0] ?? '')?.[1]);
      assert.ok(from > 0 && from <= SIZE - 5000, `resumed from ${from}`);
    } finally {
      await done();
    }
  });

  void test('5xx then success', async () => {
    fresh();
    b.sim.fault(PATH, { status: 503, times: 2 });
    try {
      const r = await download(request(b.dir, url, { segmented: true }));
      assert.equal(r.sha256, want);
      assert.equal(r.retries, 2);
    } finally {
      await done();
    }
  });

  void test('5xx forever: DOWNLOAD_HTTP_502 after maxRetries', async () => {
    fresh();
    b.sim.fault(PATH, { status: 502 });
    try {
      await assert.rejects(download(request(b.dir, url, { maxRetries: 1 })), { code: 'DOWNLOAD_HTTP_502' });
      assert.equal(b.sim.requests.filter((q) => q.path === PATH).length, 2);
      assert.deepEqual(await listDir(b.dir), []);
    } finally {
      await done();
    }
  });

  void test('404 is not retried', async () => {
    fresh();
    await assert.rejects(
      download(request(b.dir, `${b.sim.url}/missing.AppImage`)),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'DOWNLOAD_HTTP_404');
        assert.match(err.message, /missing\.AppImage/);
        return true;
      },
    );
    assert.equal(b.sim.requests.length, 1);
  });

  void test('429 with a short Retry-After is waited out', async () => {
    fresh();
    b.sim.fault(PATH, { rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 1 }, times: 1 });
    try {
      const r = await download(request(b.dir, url));
      assert.equal(r.sha256, want);
      assert.equal(r.retries, 1);
    } finally {
      await done();
    }
  });

  void test('429 asking for an hour is not waited for', async () => {
    fresh();
    b.sim.fault(PATH, { rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 3600 } });
    try {
      await assert.rejects(download(request(b.dir, url)), { code: 'DOWNLOAD_HTTP_429' });
      assert.equal(b.sim.requests.length, 1);
    } finally {
      await done();
    }
  });

  void test('stall past the timeout: DOWNLOAD_STALLED after retries, no temp file', async () => {
    fresh();
    b.sim.fault(PATH, { stallAfterBytes: 10_000 });
    try {
      await assert.rejects(
        download(request(b.dir, url, { stallTimeoutMs: 200, maxRetries: 1 })),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'DOWNLOAD_STALLED');
          assert.ok(err.message.includes(url));
          return true;
        },
      );
      assert.deepEqual(await listDir(b.dir), []);
    } finally {
      await done();
    }
  });

  void test('a stalled segment is abandoned and resumed', async () => {
    fresh();
    b.sim.fault(/app\.AppImage/, { stallAfterBytes: 50_000, times: 2 });
    try {
      const r = await download(request(b.dir, url, { segmented: true, stallTimeoutMs: 300 }));
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.ok(r.retries >= 2);
    } finally {
      await done();
    }
  });

  void test('a slow but steady connection is not a stall', async () => {
    fresh();
    // 40 kB/s in 2 kB steps: never 300 ms without a byte, though the whole takes seconds.
    b.sim.fault(PATH, { throttleBytesPerSec: 40_000 });
    const small = b.sim.putAsset('/dl/slow.bin', { size: 30_000, seed: 5 });
    b.sim.fault('/dl/slow.bin', { throttleBytesPerSec: 40_000 });
    try {
      const r = await download(request(b.dir, small, { stallTimeoutMs: 300, maxRetries: 0 }));
      assert.equal(r.sha256, generatedSha256(30_000, 5));
      assert.equal(r.retries, 0);
    } finally {
      await done();
    }
  });
});
