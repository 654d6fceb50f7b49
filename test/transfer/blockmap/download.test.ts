import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { withBlockMap } from '../../../fixtures/blockmap.js';
import { startSim, type Sim } from '../../../sim/index.js';
import type { KeeperError } from '../../../src/core/errors.js';
import {
  blockmapDownload,
  readLocalBlockMap,
  type BlockmapRequest,
  type BlockmapResult,
} from '../../../src/transfer/blockmap/index.js';
import { expectCleanFailure, leftovers, pseudoRandom, tempDir, writeFiles } from '../zsync/helpers.js';
import { createHttpSettings } from '../../../src/http/settings.js';

const PREFIX = '.appimage-keeper-test-';

/** Range headers the sim received for `path`. */
function rangesAsked(sim: Sim, path: string): string[] {
  return sim.requests
    .filter((r) => r.path === path && r.method === 'GET')
    .map((r) => (typeof r.headers.range === 'string' ? r.headers.range : '(none)'));
}

/** Bytes named by `bytes=a-b,c-d` headers (the suffix form `-n` counts n). */
function bytesAsked(headers: string[]): number {
  let total = 0;
  for (const h of headers)
    for (const spec of h.replace(/^bytes=/, '').split(',')) {
      const [a, b] = spec.split('-');
      total += a === '' ? Number(b) : Number(b) - Number(a) + 1;
    }
  return total;
}

void describe('blockmapDownload against the sim', () => {
  let sim: Sim;
  let dir: string;
  let cleanup: () => Promise<void>;
  const base = pseudoRandom(1_500_000, 31);
  // v2: v1 with 60 KB replaced in the middle and 5 KB inserted near the start.
  const v2Data = Buffer.concat([
    base.subarray(0, 100_000),
    pseudoRandom(5_000, 32),
    base.subarray(100_000, 700_000),
    pseudoRandom(60_000, 33),
    base.subarray(760_000),
  ]);
  let v1: Buffer;
  let v2: Buffer;
  const path = '/rel/v2/app.AppImage';
  let url: string;

  before(async () => {
    ({ dir, cleanup } = await tempDir());
    sim = await startSim();
    v1 = await withBlockMap(base);
    v2 = await withBlockMap(v2Data);
    url = sim.putAsset(path, v2);
    sim.putAsset('/rel/plain.AppImage', v2Data);
  });
  after(async () => {
    await sim.stop();
    await cleanup();
  });

  async function run(
    seed: Buffer,
    extra: Partial<BlockmapRequest> = {},
    setup?: () => void,
  ): Promise<BlockmapResult> {
    const seedPath = join(dir, 'installed.AppImage');
    await writeFiles(dir, { 'installed.AppImage': seed });
    // Results of earlier tests belong to those tests: clear them so leftovers are this run's.
    for (const name of await leftovers(dir, PREFIX)) await rm(join(dir, name));
    sim.clearRequests();
    sim.clearFaults();
    setup?.();
    return blockmapDownload({
      url,
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

  /** Bytes of the new file's chunks that the old file does not hold (by checksum). */
  async function changedChunkBytes(seed: Buffer): Promise<number> {
    await writeFiles(dir, { 'probe-old': seed, 'probe-new': v2 });
    const old = await readLocalBlockMap(join(dir, 'probe-old'));
    const next = await readLocalBlockMap(join(dir, 'probe-new'));
    assert.ok(old && next);
    const have = new Set(old.checksums);
    return next.sizes.reduce((sum, s, i) => sum + (have.has(next.checksums[i]!) ? 0 : s), 0);
  }

  void test('rebuilds v2 byte for byte: copies what v1 holds, fetches only the changed chunks', async () => {
    const r = await run(v1);
    assert.ok((await readFile(r.path)).equals(v2), 'result equals the published file');
    assert.equal(r.size, v2.length);
    const next = await readLocalBlockMap(r.path);
    assert.ok(next);
    const changed = await changedChunkBytes(v1);
    assert.equal(r.bytesReused, v2.length - next.tailSize - changed);
    assert.ok(changed > 65_000 && changed < 65_000 + 4 * 32_768, `changed ${changed}`);
    const asked = rangesAsked(sim, path);
    assert.equal(asked[0], 'bytes=-4', 'the length first');
    assert.equal(asked[1], `bytes=${v2.length - next.tailSize}-${v2.length - 5}`, 'then the JSON');
    // What was asked for is exactly the tail plus the chunks v1 lacks, merged into one request.
    assert.equal(asked.length, 3, asked.join(' | '));
    assert.equal(bytesAsked(asked), next.tailSize + changed);
    assert.ok(r.bytesFetched >= next.tailSize + changed);
    assert.ok(r.bytesFetched < next.tailSize + changed + 2000, `fetched ${r.bytesFetched}`);
    assert.equal(r.requests, 3);
    assert.equal(r.chunks, next.sizes.length);
  });

  void test('a locally modified installed file: the damaged chunks are downloaded, the result is exact', async () => {
    const damaged = Buffer.from(v1);
    for (const at of [10_000, 400_000, 1_200_000]) damaged[at] = damaged[at]! ^ 0xff;
    const r = await run(damaged);
    assert.ok((await readFile(r.path)).equals(v2));
    const clean = await run(v1);
    // Each flipped byte costs the one chunk it sits in (8-32 KiB).
    const lost = clean.bytesReused - r.bytesReused;
    assert.ok(lost >= 3 * 8192 && lost <= 3 * 32768, `lost ${lost}`);
    assert.equal(r.chunksCopied, clean.chunksCopied - 3);
  });

  void test('identical files: only the tail is fetched', async () => {
    const r = await run(v2);
    assert.ok((await readFile(r.path)).equals(v2));
    assert.equal(r.chunksCopied, r.chunks);
    assert.equal(rangesAsked(sim, path).length, 2);
  });

  void test('the redirect of the download URL is followed and kept for the chunk requests', async () => {
    sim.redirect('/go/app.AppImage', url);
    const r = await run(v1, { url: `${sim.url}/go/app.AppImage` });
    assert.ok((await readFile(r.path)).equals(v2));
    assert.equal(rangesAsked(sim, '/go/app.AppImage').length, 1, 'only the first request is redirected');
    assert.equal(rangesAsked(sim, path).length, 3);
    assert.equal(r.requests, 4, 'the redirect counts as a request');
  });

  void test('a corrupt tail on the new file: BLOCKMAP_NONE_REMOTE, nothing written', async () => {
    const corrupt = Buffer.from(v2);
    corrupt[corrupt.length - 100] = corrupt[corrupt.length - 100]! ^ 0xff;
    sim.putAsset('/rel/corrupt.AppImage', corrupt);
    await expectCode(run(v1, { url: `${sim.url}/rel/corrupt.AppImage` }), 'BLOCKMAP_NONE_REMOTE');
  });

  void test('a new file without a block map: BLOCKMAP_NONE_REMOTE after 4 bytes', async () => {
    const err = await expectCode(run(v1, { url: `${sim.url}/rel/plain.AppImage` }), 'BLOCKMAP_NONE_REMOTE');
    assert.equal(err.details?.requests, 1);
    assert.equal(err.details?.bytesFetched, 4);
  });

  void test('an installed file without a block map: BLOCKMAP_NONE_LOCAL, no request', async () => {
    await expectCode(run(base), 'BLOCKMAP_NONE_LOCAL');
    assert.deepEqual(rangesAsked(sim, path), []);
  });

  void test('a server without range support: BLOCKMAP_NO_RANGES, the body is not read', async () => {
    const err = await expectCode(
      run(v1, {}, () => sim.fault(path, { noRanges: true })),
      'BLOCKMAP_NO_RANGES',
    );
    assert.ok(Number(err.details?.bytesFetched) < v2.length / 2);
  });

  void test('a release size that differs from the file: BLOCKMAP_TARGET_CHANGED before any chunk', async () => {
    await expectCode(run(v1, { expectedSize: v2.length + 1 }), 'BLOCKMAP_TARGET_CHANGED');
    // The file's size (from the length probe) is checked before its block map is fetched.
    assert.equal(rangesAsked(sim, path).length, 1);
  });

  void test('a block map describing more than max_asset_size: BLOCKMAP_TARGET_TOO_LARGE before any chunk', async () => {
    const err = await expectCode(run(v1, { maxBytes: v2.length - 1 }), 'BLOCKMAP_TARGET_TOO_LARGE');
    assert.match(err.message, new RegExp(`${v2.length} bytes, over max_asset_size`));
    assert.equal(rangesAsked(sim, path).length, 1, 'only the length probe: the block map is not fetched');
  });

  void test('a server that answers multi-range requests with one part: still exact', async () => {
    const seed = Buffer.from(v1);
    for (const at of [10_000, 400_000, 1_200_000]) seed[at] = seed[at]! ^ 0xff;
    const r = await run(seed, {}, () => sim.fault(path, { firstRangeOnly: true }));
    assert.ok((await readFile(r.path)).equals(v2));
  });
});
