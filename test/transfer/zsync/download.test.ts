import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import type { KeeperError } from '../../../src/core/errors.js';
import { zsyncDownload, type ZsyncRequest, type ZsyncResult } from '../../../src/transfer/zsync/index.js';
import {
  expectCleanFailure,
  leftovers,
  pseudoRandom,
  scatterChanges,
  sha1,
  tempDir,
  writeFiles,
  zsyncmake,
} from './helpers.js';
import { createHttpSettings } from '../../../src/http/settings.js';

const PREFIX = '.appimage-keeper-test-';
const SIZE = 1_000_000 + 123; // 489 blocks of 2048, the last one short

/** Range headers the sim received for `path`. */
function rangesAsked(sim: Sim, path: string): string[] {
  return sim.requests
    .filter((r) => r.path === path && typeof r.headers.range === 'string')
    .map((r) => r.headers.range as string);
}

void describe('zsyncDownload against the sim', () => {
  let sim: Sim;
  let dir: string;
  let cleanup: () => Promise<void>;
  const target = pseudoRandom(SIZE, 21);
  let controlUrl: string;
  let control: Buffer;

  before(async () => {
    ({ dir, cleanup } = await tempDir());
    sim = await startSim();
    await writeFiles(dir, { 'app.AppImage': target });
    // A relative URL, as AppImage tooling writes it: resolved against the control file's URL.
    control = await zsyncmake(join(dir, 'app.AppImage'), 'app.AppImage');
    sim.putAsset('/rel/v2/app.AppImage', target);
    controlUrl = sim.putAsset('/rel/v2/app.AppImage.zsync', control);
  });
  after(async () => {
    await sim.stop();
    await cleanup();
  });

  async function run(
    seed: Buffer,
    extra: Partial<ZsyncRequest> = {},
    setup?: () => void,
  ): Promise<ZsyncResult> {
    const seedPath = join(dir, 'installed.AppImage');
    await writeFiles(dir, { 'installed.AppImage': seed });
    sim.clearRequests();
    sim.clearFaults();
    setup?.();
    return zsyncDownload({
      controlUrl,
      http: createHttpSettings(),
      seedPath,
      destDir: dir,
      tempPrefix: PREFIX,
      stallTimeoutMs: 5000,
      ...extra,
    });
  }

  function expectCode(p: Promise<unknown>, code: string): Promise<KeeperError> {
    return expectCleanFailure(p, code, dir, PREFIX);
  }

  async function checkResult(r: ZsyncResult): Promise<void> {
    const got = await readFile(r.path);
    assert.ok(got.equals(target), 'result bytes equal the target');
    assert.equal(r.size, SIZE);
    assert.equal(r.sha1, sha1(target));
    assert.ok(r.path.startsWith(join(dir, PREFIX)));
    assert.equal(r.targetUrl, `${sim.url}/rel/v2/app.AppImage`);
  }

  void test('identical seed: only the control file is fetched', async () => {
    const progress: [number, number][] = [];
    const r = await run(target, { onProgress: (f, t) => progress.push([f, t]) });
    try {
      await checkResult(r);
      assert.equal(r.bytesReused, SIZE);
      assert.equal(r.requests, 1);
      assert.equal(r.bytesFetched, control.length);
      assert.deepEqual(rangesAsked(sim, '/rel/v2/app.AppImage'), []);
      assert.deepEqual(progress, [[0, 0]]);
    } finally {
      await leftoverCleanup(dir);
    }
  });

  void test('small change: only the changed blocks travel, in one multi-range request', async () => {
    const seed = scatterChanges(target, 6);
    const progress: [number, number][] = [];
    const r = await run(seed, { onProgress: (f, t) => progress.push([f, t]) });
    try {
      await checkResult(r);
      const ranges = rangesAsked(sim, '/rel/v2/app.AppImage');
      assert.equal(ranges.length, 1);
      assert.equal(ranges[0]!.split(',').length, 6, ranges[0]);
      assert.equal(r.requests, 2);
      assert.equal(r.bytesReused, SIZE - 6 * 2048);
      // Control file + 6 blocks + multipart framing, nothing more.
      assert.ok(r.bytesFetched > control.length + 6 * 2048, String(r.bytesFetched));
      assert.ok(r.bytesFetched < control.length + 6 * 2048 + 6 * 200, String(r.bytesFetched));
      assert.deepEqual(progress.at(-1), [6 * 2048, 6 * 2048]);
    } finally {
      await leftoverCleanup(dir);
    }
  });

  void test('large change and a shifted seed: ranges are split over several requests', async () => {
    // The first half is new; the second half moved by 1000 bytes (an insertion in the old file).
    const seed = Buffer.concat([
      pseudoRandom(1000, 77),
      pseudoRandom(SIZE / 2, 78),
      target.subarray(SIZE / 2),
    ]);
    const r = await run(seed, { maxRangesPerRequest: 4 });
    try {
      await checkResult(r);
      assert.ok(
        r.bytesReused >= SIZE / 2 - 2 * 2048 && r.bytesReused <= SIZE / 2 + 2048,
        String(r.bytesReused),
      );
      const ranges = rangesAsked(sim, '/rel/v2/app.AppImage');
      assert.ok(ranges.length >= 1);
      for (const h of ranges) assert.ok(h.split(',').length <= 4, h);
    } finally {
      await leftoverCleanup(dir);
    }
  });

  void test('many scattered changes with few ranges per request: several multipart responses', async () => {
    const seed = scatterChanges(target, 40);
    const r = await run(seed, { maxRangesPerRequest: 8 });
    try {
      await checkResult(r);
      const ranges = rangesAsked(sim, '/rel/v2/app.AppImage');
      assert.equal(
        ranges.reduce((n, h) => n + h.split(',').length, 0),
        40,
      );
      assert.equal(ranges.length, 5);
      assert.equal(r.requests, 6);
    } finally {
      await leftoverCleanup(dir);
    }
  });

  void test('an empty seed fetches everything', async () => {
    const r = await run(Buffer.alloc(0));
    try {
      await checkResult(r);
      assert.equal(r.bytesReused, 0);
    } finally {
      await leftoverCleanup(dir);
    }
  });

  void test('a redirect to the target on another origin is followed', async () => {
    const other = sim.putSecondAsset('/cdn/app.AppImage', target);
    sim.redirect('/rel/v2/app.AppImage', other, 302);
    try {
      const r = await run(scatterChanges(target, 2));
      assert.ok((await readFile(r.path)).equals(target));
      assert.equal(r.targetUrl, other);
    } finally {
      sim.putAsset('/rel/v2/app.AppImage', target);
      await leftoverCleanup(dir);
    }
  });

  void test('control file 404 → ZSYNC_CONTROL_HTTP', async () => {
    await expectCode(run(target, { controlUrl: `${sim.url}/rel/v2/missing.zsync` }), 'ZSYNC_CONTROL_HTTP');
  });

  void test('not a control file → ZSYNC_CONTROL_INVALID', async () => {
    const html = sim.putAsset('/rel/v2/page.zsync', Buffer.from('<!DOCTYPE html>\n<html>nope</html>\n'));
    await expectCode(run(target, { controlUrl: html }), 'ZSYNC_CONTROL_INVALID');
  });

  void test('SHA-1 in the control file does not match the result → ZSYNC_CHECKSUM, temp file removed', async () => {
    const wrong = Buffer.from(
      control.toString('latin1').replace(/SHA-1: [0-9a-f]{40}/, `SHA-1: ${'0'.repeat(40)}`),
      'latin1',
    );
    const url = sim.putAsset('/rel/v2/wrong-sha.zsync', wrong);
    // Wrong SHA-1 via the control file's relative URL still names the real target.
    await expectCode(run(scatterChanges(target, 3), { controlUrl: url }), 'ZSYNC_CHECKSUM');
  });

  void test('a server without range support → ZSYNC_NO_RANGES, temp file removed', async () => {
    const p = run(scatterChanges(target, 3), {}, () => sim.fault('/rel/v2/app.AppImage', { noRanges: true }));
    await expectCode(p, 'ZSYNC_NO_RANGES');
  });

  void test('a target that changed since the control file was made → ZSYNC_BLOCK_CHECKSUM', async () => {
    sim.putAsset('/rel/v2/app.AppImage', scatterChanges(target, 50, 2048 * 9 + 5));
    try {
      await expectCode(run(scatterChanges(target, 50, 2048 * 9 + 5)), 'ZSYNC_BLOCK_CHECKSUM');
    } finally {
      sim.putAsset('/rel/v2/app.AppImage', target);
    }
  });

  void test('a target of another length → ZSYNC_TARGET_CHANGED', async () => {
    sim.putAsset('/rel/v2/app.AppImage', Buffer.concat([target, Buffer.from('more')]));
    try {
      await expectCode(run(scatterChanges(target, 2)), 'ZSYNC_TARGET_CHANGED');
    } finally {
      sim.putAsset('/rel/v2/app.AppImage', target);
    }
  });

  void test('a control file claiming 1 GiB against a smaller release asset is refused before anything is written', async () => {
    // 64 blocks of 16 MiB: a small, well-formed control file describing a 1 GiB target.
    const blocks = 64;
    const head = [
      'zsync: 0.6.2',
      'Filename: app.AppImage',
      'Blocksize: 16777216',
      `Length: ${blocks * 16777216}`,
      'Hash-Lengths: 1,4,16',
      'URL: app.AppImage',
      `SHA-1: ${'1'.repeat(40)}`,
      '',
      '',
    ].join('\n');
    const huge = sim.putAsset(
      '/rel/v2/huge.zsync',
      Buffer.concat([Buffer.from(head), Buffer.alloc(blocks * 20)]),
    );
    const err = await expectCode(
      run(target, { controlUrl: huge, expectedSize: SIZE }),
      'ZSYNC_TARGET_CHANGED',
    );
    assert.match(err.message, /1073741824 bytes/);
    assert.deepEqual(
      sim.requests.map((q) => q.path),
      ['/rel/v2/huge.zsync'],
      'no range request: nothing was fetched or written for the claimed length',
    );
  });

  void test('a control file claiming more than max_asset_size → ZSYNC_TARGET_TOO_LARGE, nothing fetched', async () => {
    // No release size to compare with (a direct recipe): only max_asset_size bounds the claim.
    const err = await expectCode(run(target, { maxBytes: SIZE - 1 }), 'ZSYNC_TARGET_TOO_LARGE');
    assert.match(err.message, new RegExp(`${SIZE} bytes, over max_asset_size \\(${SIZE - 1}\\)`));
    assert.equal(sim.requests.filter((q) => q.headers.range !== undefined).length, 0, 'no range request');
    assert.deepEqual(await leftovers(dir, PREFIX), []);
    const ok = await run(target, { maxBytes: SIZE });
    assert.equal(ok.size, SIZE);
    await leftoverCleanup(dir);
  });

  void test('a dropped connection is retried; a persistent 500 gives up with ZSYNC_TARGET_HTTP', async () => {
    const seed = scatterChanges(target, 10);
    const r = await run(seed, {}, () =>
      sim.fault('/rel/v2/app.AppImage', { dropAfterBytes: 5000, times: 1 }),
    );
    try {
      assert.ok((await readFile(r.path)).equals(target));
      assert.ok(rangesAsked(sim, '/rel/v2/app.AppImage').length >= 2);
    } finally {
      await leftoverCleanup(dir);
    }
    const q = run(seed, {}, () => sim.fault('/rel/v2/app.AppImage', { status: 500 }));
    const err = await expectCode(q, 'ZSYNC_TARGET_HTTP');
    assert.equal(err.details?.status, 500);
  });

  void test('a slow transfer reports progress as it goes, not once per 1 MiB written', async () => {
    // 300 kB of new blocks at 100 kB/s: about 3 s, far below one 1 MiB flush.
    const seed = Buffer.concat([pseudoRandom(300_000, 91), target.subarray(300_000)]);
    const progress: number[] = [];
    const r = await run(seed, { onProgress: (f) => progress.push(f) }, () =>
      sim.fault('/rel/v2/app.AppImage', { throttleBytesPerSec: 100_000 }),
    );
    try {
      await checkResult(r);
      const steps = [...new Set(progress)].filter((f) => f > 0);
      // One report per flush; by time, that is about ten a second here.
      assert.ok(steps.length >= 10, `progress: ${progress.join(', ')}`);
      assert.deepEqual(
        progress,
        [...progress].sort((a, b) => a - b),
      );
    } finally {
      await leftoverCleanup(dir);
    }
  });

  void test('a trickling range response (1 byte every 50 ms) → ZSYNC_TOO_SLOW under min_rate', async () => {
    const p = run(scatterChanges(target, 10), { stallTimeoutMs: 300, minBytesPerSec: 10_240 }, () =>
      sim.fault('/rel/v2/app.AppImage', { throttleBytesPerSec: 20 }),
    );
    const err = await expectCode(p, 'ZSYNC_TOO_SLOW');
    assert.match(err.message, /below 10240 bytes\/s/);
  });

  void test('a stalled range response → ZSYNC_STALLED', async () => {
    const p = run(scatterChanges(target, 10), { stallTimeoutMs: 300 }, () =>
      sim.fault('/rel/v2/app.AppImage', { stallAfterBytes: 3000 }),
    );
    await expectCode(p, 'ZSYNC_STALLED');
  });

  void test('an aborted run → ZSYNC_ABORTED, temp file removed', async () => {
    const ac = new AbortController();
    const p = run(scatterChanges(target, 10), { signal: ac.signal }, () => {
      sim.fault('/rel/v2/app.AppImage', { latencyMs: 2000 });
      setTimeout(() => ac.abort(), 200);
    });
    await expectCode(p, 'ZSYNC_ABORTED');
  });
});

async function leftoverCleanup(dir: string): Promise<void> {
  const { rm } = await import('node:fs/promises');
  for (const name of await leftovers(dir, PREFIX)) await rm(join(dir, name), { force: true });
}
