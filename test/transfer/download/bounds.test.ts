/**
 * What a download may cost: a body without Content-Length is held to the size the release
 * announced (nothing past it is written), and a trickle below the minimum rate is a stall.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { generatedSha256 } from '../../../sim/index.js';
import { download } from '../../../src/transfer/download/index.js';
import { listDir, request, setUp, type Bench } from './helpers.js';

const ANNOUNCED = 5568;

void describe('download: announced size and minimum rate', () => {
  let b: Bench;
  before(async () => {
    b = await setUp();
  });
  after(async () => b.close());

  void test('a chunked body longer than the announced size stops there and fails', async () => {
    // 64 MiB behind a release that announces 5,568 bytes, with no Content-Length to catch it.
    const url = b.sim.putAsset('/dl/endless.AppImage', { size: 64 * 1024 * 1024, seed: 3 });
    b.sim.fault('/dl/endless.AppImage', { chunked: true });
    let most = 0;
    try {
      await assert.rejects(
        download(
          request(b.dir, url, {
            expectedSize: ANNOUNCED,
            onProgress: (received) => {
              most = Math.max(most, received);
            },
          }),
        ),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'DOWNLOAD_SIZE_MISMATCH');
          assert.match(err.message, /5568 bytes/);
          return true;
        },
      );
      assert.ok(most <= ANNOUNCED, `wrote ${most} bytes for an asset announced as ${ANNOUNCED}`);
      assert.deepEqual(await listDir(b.dir), []);
    } finally {
      b.sim.clearFaults();
    }
  });

  void test('with no announced size, a chunked body stops at maxBytes and fails ASSET_TOO_LARGE', async () => {
    // A direct link with no size anywhere: only max_asset_size bounds what is written.
    const url = b.sim.putAsset('/dl/unbounded.AppImage', { size: 64 * 1024 * 1024, seed: 6 });
    b.sim.fault('/dl/unbounded.AppImage', { chunked: true });
    let most = 0;
    try {
      await assert.rejects(
        download(
          request(b.dir, url, {
            maxBytes: 100_000,
            onProgress: (received) => {
              most = Math.max(most, received);
            },
          }),
        ),
        (err: Error & { code?: string; hint?: string }) => {
          assert.equal(err.code, 'ASSET_TOO_LARGE');
          assert.match(err.message, /runs past max_asset_size \(100000 bytes\)/);
          return true;
        },
      );
      assert.ok(most <= 100_000, `wrote ${most} bytes past a bound of 100000`);
      assert.deepEqual(await listDir(b.dir), []);
      // At exactly the bound it is fine.
      const exact = b.sim.putAsset('/dl/at-bound.AppImage', { size: 100_000, seed: 7 });
      b.sim.fault('/dl/at-bound.AppImage', { chunked: true });
      const r = await download(request(b.dir, exact, { maxBytes: 100_000 }));
      assert.equal(r.size, 100_000);
      await rm(r.path);
    } finally {
      b.sim.clearFaults();
    }
  });

  void test('a Content-Length over maxBytes is refused before the body is read', async () => {
    const url = b.sim.putAsset('/dl/announced-big.AppImage', { size: 8 * 1024 * 1024, seed: 8 });
    let most = 0;
    await assert.rejects(
      download(
        request(b.dir, url, {
          maxBytes: 1024 * 1024,
          onProgress: (received) => {
            most = Math.max(most, received);
          },
        }),
      ),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'ASSET_TOO_LARGE');
        assert.match(err.message, /server announces 8388608 bytes, over max_asset_size \(1048576\)/);
        return true;
      },
    );
    assert.equal(most, 0);
    assert.deepEqual(await listDir(b.dir), []);
  });

  void test('a chunked body of exactly the announced size is fine; a shorter one is short', async () => {
    const url = b.sim.putAsset('/dl/exact.AppImage', { size: ANNOUNCED, seed: 4 });
    b.sim.fault('/dl/exact.AppImage', { chunked: true });
    try {
      const r = await download(request(b.dir, url, { expectedSize: ANNOUNCED }));
      assert.equal(r.size, ANNOUNCED);
      assert.equal(r.sha256, generatedSha256(ANNOUNCED, 4));
      await rm(r.path);
      await assert.rejects(
        download(request(b.dir, url, { expectedSize: ANNOUNCED + 10, maxRetries: 0 })),
        (err: Error & { code?: string }) => err.code === 'DOWNLOAD_SHORT',
      );
    } finally {
      b.sim.clearFaults();
    }
  });

  void test('a steady trickle below min_rate is DOWNLOAD_TOO_SLOW; without the rule it is no stall', async () => {
    // 1 byte every 50 ms: never silent for the 300 ms stall timeout, far below 10 KiB/s.
    const url = b.sim.putAsset('/dl/trickle.AppImage', { size: 100_000, seed: 5 });
    b.sim.fault('/dl/trickle.AppImage', { throttleBytesPerSec: 20 });
    try {
      await assert.rejects(
        download(request(b.dir, url, { stallTimeoutMs: 300, minBytesPerSec: 10_240, maxRetries: 1 })),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'DOWNLOAD_TOO_SLOW');
          assert.match(err.message, /below min_rate 10240 bytes\/s/);
          return true;
        },
      );
      assert.deepEqual(await listDir(b.dir), []);
      // Without a minimum rate the same trickle keeps the attempt alive (aborted here by the test).
      const stop = new AbortController();
      const pending = download(request(b.dir, url, { stallTimeoutMs: 300, signal: stop.signal }));
      await new Promise((r) => setTimeout(r, 1_000));
      stop.abort();
      await assert.rejects(pending, (err: Error & { code?: string }) => err.code === 'DOWNLOAD_ABORTED');
    } finally {
      b.sim.clearFaults();
    }
  });
});
