import assert from 'node:assert/strict';
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatedSha256 } from '../../../sim/index.js';
import { cleanStaleTemps, download, type DownloadResult } from '../../../src/transfer/download/index.js';
import { bootTag } from '../../../src/core/process-owner.js';
import { deadPid } from '../../helpers/dead-pid.js';
import { legacyTempPattern, tempPrefix } from '../../../src/install/naming.js';
import {
  fileSha256,
  listDir,
  PREFIX,
  rangesFor,
  removeTestTemps,
  request,
  setUp,
  type Bench,
} from './helpers.js';

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
      await removeTestTemps(b.dir);
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
      await removeTestTemps(b.dir);
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
      await removeTestTemps(b.dir);
    }
  });

  void test('segmented is skipped for a file smaller than two segments', async () => {
    const small = b.sim.putAsset('/rel/small.bin', { size: 300_000, seed: 3 });
    const r = await download(request(b.dir, small, { segmented: true, minSegmentBytes: 256 * 1024 }));
    assert.equal(r.segmented, false);
    assert.equal(r.sha256, generatedSha256(300_000, 3));
    await removeTestTemps(b.dir);
  });

  void test('an empty file downloads', async () => {
    const empty = b.sim.putAsset('/rel/empty.bin', Buffer.alloc(0));
    const r = await download(request(b.dir, empty, { segmented: true }));
    assert.equal(r.size, 0);
    assert.equal(r.sha256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    await removeTestTemps(b.dir);
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
      await removeTestTemps(b.dir);
    }
  });

  void test('a redirect loop fails with HTTP_TOO_MANY_REDIRECTS (phase download) and leaves no temp file', async () => {
    b.sim.redirect('/loop-a', `${b.sim.url}/loop-b`);
    b.sim.redirect('/loop-b', `${b.sim.url}/loop-a`);
    await assert.rejects(download(request(b.dir, `${b.sim.url}/loop-a`)), {
      code: 'HTTP_TOO_MANY_REDIRECTS',
      message: `more than 10 redirects (${b.sim.url}/loop-a)`,
      details: { url: `${b.sim.url}/loop-a`, phase: 'download' },
    });
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
  void test("removes only temps whose owner is gone, never another live process's, never another app's", async () => {
    const b = await setUp();
    try {
      const boot = await bootTag();
      const dead = deadPid();
      const big = tempPrefix('big');
      const bigX = tempPrefix('big-x');
      const stale = `${big}${dead}.${boot}.aaaaaaaaaaaa.part`;
      const otherBoot = `${big}${process.ppid}.${boot === 'ffffffff' ? '00000000' : 'ffffffff'}.bbbbbbbbbbbb.zsync`;
      // Another config dir sharing this storage_dir: a live process (our parent) is writing it.
      const live = `${big}${process.ppid}.${boot}.cccccccccccc.part`;
      // Our own pid but a file this process never made: left by an earlier process with our pid.
      const reused = `${big}${process.pid}.${boot}.dddddddddddd.part`;
      const bigXStale = `${bigX}${dead}.${boot}.eeeeeeeeeeee.part`;
      const noOwner = `${big}unparsable.part`;
      for (const n of [stale, otherBoot, live, reused, bigXStale, noOwner, 'keep.AppImage']) {
        await writeFile(join(b.dir, n), 'x');
      }
      const removed = await cleanStaleTemps(b.dir, big);
      assert.deepEqual(
        removed.map((p) => p.slice(b.dir.length + 1)).sort(),
        [otherBoot, reused, stale].sort(),
      );
      assert.deepEqual(await listDir(b.dir), [bigXStale, live, noOwner, 'keep.AppImage'].sort());
      // `big-x`'s prefix cannot be matched by `big`'s (the `~` cannot occur in a name) and vice versa.
      assert.ok(!bigXStale.startsWith(big));
      assert.deepEqual(await cleanStaleTemps(join(b.dir, 'missing'), big), []);
      await assert.rejects(cleanStaleTemps(b.dir, ''));
    } finally {
      await b.close();
    }
  });

  void test('a download in flight in this process is never removed; its temp name carries the owner', async () => {
    const b = await setUp();
    try {
      const prefix = tempPrefix('app');
      const url = b.sim.putAsset('/dl/owned.bin', { size: 300_000, seed: 3 });
      const result = await download(request(b.dir, url, { tempPrefix: prefix }));
      assert.match(result.path, new RegExp(`${process.pid}\\.${await bootTag()}\\.[0-9a-f]{12}\\.part$`));
      assert.deepEqual(await cleanStaleTemps(b.dir, prefix), []);
      await stat(result.path);
    } finally {
      await b.close();
    }
  });

  void test('legacy names of earlier versions are matched exactly per app', async () => {
    const b = await setUp();
    try {
      const legacy = ['.appimage-keeper-big-0123456789ab.part', '.appimage-keeper-big-zsync-0123456789ab'];
      const other = ['.appimage-keeper-big-x-0123456789ab.part', '.appimage-keeper-big-x-zsync-0123456789ab'];
      for (const n of [...legacy, ...other]) await writeFile(join(b.dir, n), 'x');
      const removed = await cleanStaleTemps(b.dir, tempPrefix('big'), legacyTempPattern('big'));
      assert.deepEqual(removed.map((p) => p.slice(b.dir.length + 1)).sort(), legacy.sort());
      assert.deepEqual(await listDir(b.dir), other.sort());
    } finally {
      await b.close();
    }
  });
});
