import assert from 'node:assert/strict';
import { stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatedSha256 } from '../../sim/index.js';
import { cleanStaleTemps, download, type DownloadResult } from '../../src/net/download/index.js';
import { fileSha256, listDir, PREFIX, rangesFor, request, setUp, type Bench } from './helpers.js';

const SIZE = 3 * 1024 * 1024 + 777; // not a multiple of anything, so segment edges are exercised
const SEED = 11;

void describe('download: happy paths', () => {
  let b: Bench;
  let url: string;
  const want = generatedSha256(SIZE, SEED);

  before(async () => {
    b = await setUp();
    url = b.sim.putAsset('/rel/app.AppImage', { size: SIZE, seed: SEED });
  });
  after(async () => b.close());

  void test('plain GET writes the exact bytes into a temp file in destDir', async () => {
    b.sim.clearRequests();
    const progress: number[] = [];
    const r = await download(request(b.dir, url, { onProgress: (n) => progress.push(n) }));
    try {
      assert.equal(r.segmented, false);
      assert.equal(r.connections, 1);
      assert.equal(r.size, SIZE);
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      assert.equal((await stat(r.path)).size, SIZE);
      assert.ok(r.path.startsWith(join(b.dir, PREFIX)));
      assert.equal(r.finalUrl, url);
      assert.equal(progress.at(-1), SIZE);
      assert.deepEqual(rangesFor(b.sim, '/rel/app.AppImage'), []);
    } finally {
      await cleanStaleTemps(b.dir, PREFIX);
    }
  });

  void test('segmented: N parallel Range requests with If-Range, exact bytes', async () => {
    b.sim.clearRequests();
    const r = await download(
      request(b.dir, url, { segmented: true, connections: 4, minSegmentBytes: 512 * 1024 }),
    );
    try {
      assert.equal(r.segmented, true);
      assert.equal(r.connections, 4);
      assert.equal(r.sha256, want);
      assert.equal(await fileSha256(r.path), want);
      const gets = b.sim.requests.filter((q) => q.method === 'GET' && q.path === '/rel/app.AppImage');
      const ranged = gets.filter((q) => q.headers.range !== undefined);
      // The probe GET serves the first segment; at least three more connections ask for ranges.
      assert.ok(ranged.length >= 3, `expected >= 3 range requests, got ${ranged.length}`);
      for (const q of ranged) {
        assert.match(String(q.headers.range), /^bytes=\d+-\d+$/);
        assert.ok(q.headers['if-range'], 'every Range request carries If-Range');
      }
      const starts = new Set(ranged.map((q) => Number(/bytes=(\d+)-/.exec(String(q.headers.range))?.[1])));
      assert.ok(starts.size >= 3, 'distinct segments');
    } finally {
      await cleanStaleTemps(b.dir, PREFIX);
    }
  });

  void test('segments really run in parallel: the sim sees several ranged GETs open at once', async () => {
    // With a throttle every connection is slow; all initial segments must be requested before any finishes.
    b.sim.clearRequests();
    b.sim.fault('/rel/app.AppImage', { throttleBytesPerSec: 4 * 1024 * 1024 });
    try {
      // Ranged requests the sim had seen when 40% of the file was on disk: sequential segments
      // would have started at most one by then (the second starts at 25%), parallel ones three.
      let seenAt40: number | undefined;
      const r = await download(
        request(b.dir, url, {
          segmented: true,
          connections: 4,
          minSegmentBytes: 512 * 1024,
          onProgress: (n) => {
            if (seenAt40 === undefined && n >= SIZE * 0.4)
              seenAt40 = rangesFor(b.sim, '/rel/app.AppImage').length;
          },
        }),
      );
      assert.equal(r.sha256, want);
      assert.ok((seenAt40 ?? 0) >= 3, `ranged requests seen at 40%: ${seenAt40}`);
    } finally {
      b.sim.clearFaults();
      await cleanStaleTemps(b.dir, PREFIX);
    }
  });

  void test('segmented is skipped for a file smaller than two segments', async () => {
    const small = b.sim.putAsset('/rel/small.bin', { size: 300_000, seed: 3 });
    const r = await download(request(b.dir, small, { segmented: true, minSegmentBytes: 256 * 1024 }));
    assert.equal(r.segmented, false);
    assert.equal(r.sha256, generatedSha256(300_000, 3));
    await cleanStaleTemps(b.dir, PREFIX);
  });

  void test('an empty file downloads', async () => {
    const empty = b.sim.putAsset('/rel/empty.bin', Buffer.alloc(0));
    const r = await download(request(b.dir, empty, { segmented: true }));
    assert.equal(r.size, 0);
    assert.equal(r.sha256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    await cleanStaleTemps(b.dir, PREFIX);
  });

  void test('redirect to the second origin is followed and no Authorization is ever sent', async () => {
    b.sim.clearRequests();
    const target = b.sim.putSecondAsset('/cdn/app.AppImage', { size: SIZE, seed: SEED });
    b.sim.redirect('/releases/download/v1/app.AppImage', target);
    const start = `${b.sim.url}/releases/download/v1/app.AppImage`;
    const r = await download(
      request(b.dir, start, {
        segmented: true,
        headers: { Authorization: 'token secret', 'user-agent': 'ak-test' },
      }),
    );
    try {
      assert.equal(r.sha256, want);
      assert.equal(r.finalUrl, target);
      const second = b.sim.requests.filter((q) => q.origin === 'second');
      assert.ok(second.length >= 2, 'segments went to the redirect target');
      for (const q of b.sim.requests) {
        assert.equal(q.headers.authorization, undefined, `${q.origin} ${q.path} got Authorization`);
      }
      assert.ok(
        b.sim.requests.some((q) => q.headers['user-agent'] === 'ak-test'),
        'other headers are kept',
      );
    } finally {
      await cleanStaleTemps(b.dir, PREFIX);
    }
  });

  void test('a redirect loop fails with DOWNLOAD_REDIRECTS and leaves no temp file', async () => {
    b.sim.redirect('/loop-a', `${b.sim.url}/loop-b`);
    b.sim.redirect('/loop-b', `${b.sim.url}/loop-a`);
    await assert.rejects(download(request(b.dir, `${b.sim.url}/loop-a`)), { code: 'DOWNLOAD_REDIRECTS' });
    assert.deepEqual(await listDir(b.dir), []);
  });

  void test('a size different from expectedSize fails before downloading the body', async () => {
    await assert.rejects(download(request(b.dir, url, { expectedSize: SIZE + 1 })), {
      code: 'DOWNLOAD_SIZE_MISMATCH',
    });
    assert.deepEqual(await listDir(b.dir), []);
  });

  void test('abort via signal: rejects with DOWNLOAD_ABORTED and leaves no temp file', async () => {
    b.sim.fault('/rel/app.AppImage', { throttleBytesPerSec: 2 * 1024 * 1024 });
    const controller = new AbortController();
    let result: DownloadResult | undefined;
    try {
      const pending = download(
        request(b.dir, url, {
          segmented: true,
          signal: controller.signal,
          onProgress: (n) => {
            if (n > 0) controller.abort();
          },
        }),
      );
      await assert.rejects(
        pending.then((r) => {
          result = r;
        }),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'DOWNLOAD_ABORTED');
          assert.match(err.message, /app\.AppImage/);
          return true;
        },
      );
      assert.equal(result, undefined);
      assert.deepEqual(await listDir(b.dir), []);
    } finally {
      b.sim.clearFaults();
    }
  });

  void test('an already aborted signal does not even create a temp file', async () => {
    await assert.rejects(download(request(b.dir, url, { signal: AbortSignal.abort() })), {
      code: 'DOWNLOAD_ABORTED',
    });
    assert.deepEqual(await listDir(b.dir), []);
  });
});

void describe('cleanStaleTemps', () => {
  void test('removes only entries with the prefix, and tolerates a missing directory', async () => {
    const b = await setUp();
    try {
      await writeFile(join(b.dir, `${PREFIX}abc.part`), 'x');
      await writeFile(join(b.dir, `${PREFIX}def.part`), 'y');
      await mkdir(join(b.dir, `${PREFIX}dir`));
      await writeFile(join(b.dir, 'keep.AppImage'), 'z');
      await writeFile(join(b.dir, '.appimage-keeper-other-1.part'), 'w');
      const removed = await cleanStaleTemps(b.dir, PREFIX);
      assert.deepEqual(removed.map((p) => p.slice(b.dir.length + 1)).sort(), [
        `${PREFIX}abc.part`,
        `${PREFIX}def.part`,
        `${PREFIX}dir`,
      ]);
      assert.deepEqual(await listDir(b.dir), ['.appimage-keeper-other-1.part', 'keep.AppImage']);
      assert.deepEqual(await cleanStaleTemps(join(b.dir, 'missing'), PREFIX), []);
      await assert.rejects(cleanStaleTemps(b.dir, ''));
    } finally {
      await b.close();
    }
  });
});
