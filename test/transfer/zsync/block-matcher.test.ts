import assert from 'node:assert/strict';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BlockHasher } from '../../../src/transfer/zsync/block-hasher.js';
import { BlockMatcher } from '../../../src/transfer/zsync/block-matcher.js';
import { parseControlFile, type ZsyncControl } from '../../../src/transfer/zsync/index.js';
import { blockRsum, rsumMasks } from '../../../src/transfer/zsync/rolling-checksum.js';
import { scanSeed } from '../../../src/transfer/zsync/seed-scan.js';
import { pseudoRandom, scatterChanges, tempDir, writeFiles, zsyncmake } from './helpers.js';

interface Layout {
  blockSize: number;
  seqMatches: 1 | 2;
  rsumBytes: number;
  checksumBytes: number;
}

/** A control structure for `target` built in memory (the parser tests tie these sums to zsyncmake's). */
async function controlFor(target: Buffer, l: Layout): Promise<ZsyncControl> {
  const hasher = await BlockHasher.create();
  const blockCount = Math.ceil(target.length / l.blockSize);
  const masks = rsumMasks(l.rsumBytes);
  const rsums = new Uint32Array(blockCount);
  const checksums = new Uint8Array(blockCount * l.checksumBytes);
  for (let id = 0; id < blockCount; id++) {
    const block = Buffer.alloc(l.blockSize);
    target.copy(block, 0, id * l.blockSize, (id + 1) * l.blockSize);
    const r = blockRsum(block, 0, l.blockSize);
    rsums[id] = ((((r >>> 16) & masks.a) << 16) | (r & masks.b)) >>> 0;
    checksums.set(hasher.digest(block).subarray(0, l.checksumBytes), id * l.checksumBytes);
  }
  return {
    version: '0.6.2',
    minVersion: undefined,
    filename: undefined,
    mtime: undefined,
    length: target.length,
    blockCount,
    urls: ['x'],
    compressedUrls: [],
    sha1: undefined,
    rsums,
    checksums,
    ...l,
  };
}

/** Scans `seed` in one buffer (zero-padded like at end of file); checks every recorded match's bytes. */
async function scanAll(control: ZsyncControl, target: Buffer, seed: Buffer): Promise<BlockMatcher> {
  const m = new BlockMatcher(control, await BlockHasher.create());
  const buf = Buffer.concat([seed, Buffer.alloc(m.contextBytes)]);
  m.scan(buf, 0, buf.length);
  const bs = control.blockSize;
  m.matchIds.forEach((id, i) => {
    const off = m.matchOffsets[i]!;
    const len = Math.min(bs, target.length - id * bs);
    assert.ok(buf.subarray(off, off + len).equals(target.subarray(id * bs, id * bs + len)), `block ${id}`);
  });
  return m;
}

function missing(m: BlockMatcher): number[] {
  return [...m.known.keys()].filter((id) => m.known[id] === 0);
}

const SEQ2: Layout = { blockSize: 512, seqMatches: 2, rsumBytes: 2, checksumBytes: 4 };
const SEQ1: Layout = { blockSize: 512, seqMatches: 1, rsumBytes: 4, checksumBytes: 16 };

void describe('BlockMatcher', () => {
  for (const layout of [SEQ1, SEQ2]) {
    const name = `seq_matches ${layout.seqMatches}`;

    void test(`${name}: an identical seed yields every block, the short last one included`, async () => {
      const target = pseudoRandom(512 * 40 + 123, 1);
      const m = await scanAll(await controlFor(target, layout), target, target);
      assert.deepEqual(missing(m), []);
      assert.equal(m.blocksFound, 41);
    });

    void test(`${name}: scattered byte changes cost exactly the changed blocks`, async () => {
      const target = pseudoRandom(512 * 64, 2);
      const seed = scatterChanges(target, 5, 512 * 10 + 7);
      const m = await scanAll(await controlFor(target, layout), target, seed);
      assert.deepEqual(missing(m), [10, 20, 30, 40, 50]);
    });

    void test(`${name}: an insertion shifts the rest, which is still found at odd offsets`, async () => {
      const target = pseudoRandom(512 * 64, 3);
      const seed = Buffer.concat([
        target.subarray(0, 512 * 20 + 100),
        Buffer.from('inserted!'),
        target.subarray(512 * 20 + 100),
      ]);
      const m = await scanAll(await controlFor(target, layout), target, seed);
      assert.deepEqual(missing(m), [20]);
    });

    void test(`${name}: a seed with nothing in common finds nothing`, async () => {
      const target = pseudoRandom(512 * 16, 4);
      const m = await scanAll(await controlFor(target, layout), target, pseudoRandom(512 * 16, 99));
      assert.equal(m.blocksFound, 0);
    });
  }

  void test('identical target blocks are all filled from one seed occurrence', async () => {
    const target = Buffer.concat([pseudoRandom(2048, 5), Buffer.alloc(512 * 30), pseudoRandom(2048, 6)]);
    const seed = Buffer.concat([pseudoRandom(300, 7), Buffer.alloc(1024), pseudoRandom(300, 8)]);
    const m = await scanAll(await controlFor(target, SEQ2), target, seed);
    const zeros = Array.from({ length: 30 }, (_, i) => 4 + i);
    assert.deepEqual(
      zeros.filter((id) => m.known[id] === 0),
      [],
    );
  });

  void test('a block only counts with its successor when seq_matches is 2', async () => {
    // Block 5 of the target sits alone in the seed, between bytes that match nothing.
    const target = pseudoRandom(512 * 12, 9);
    const seed = Buffer.concat([
      pseudoRandom(700, 10),
      target.subarray(512 * 5, 512 * 6),
      pseudoRandom(700, 11),
    ]);
    const two = await scanAll(await controlFor(target, SEQ2), target, seed);
    assert.equal(two.blocksFound, 0);
    const one = await scanAll(await controlFor(target, SEQ1), target, seed);
    assert.deepEqual(
      [...one.known.keys()].filter((id) => one.known[id] === 1),
      [5],
    );
  });
});

void describe('scanSeed', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => ({ dir, cleanup } = await tempDir()));
  after(async () => cleanup());

  void test('streams the seed in small chunks and writes matched blocks at their target offsets', async () => {
    const target = pseudoRandom(300_000, 12);
    const seed = Buffer.concat([Buffer.from('prefix'), scatterChanges(target, 7)]);
    await writeFiles(dir, { 'target.bin': target, 'seed.bin': seed });
    const control = parseControlFile(await zsyncmake(join(dir, 'target.bin'), 'target.bin'));
    const results: Buffer[] = [];
    const found: number[] = [];
    // Chunk sizes around the context (2 blocks) and odd sizes put block edges at chunk edges.
    for (const chunkBytes of [4096, 5000, 65_537, 1 << 22]) {
      const matcher = new BlockMatcher(control, await BlockHasher.create());
      const path = join(dir, `out-${chunkBytes}`);
      const out = await open(path, 'w+');
      await out.truncate(control.length);
      const reused = await scanSeed({
        seedPath: join(dir, 'seed.bin'),
        matcher,
        out,
        blockSize: control.blockSize,
        length: control.length,
        chunkBytes,
      });
      await out.close();
      const got = await readFile(path);
      const bs = control.blockSize;
      let expectReused = 0;
      for (let id = 0; id < control.blockCount; id++) {
        const s = id * bs;
        const e = Math.min(s + bs, target.length);
        if (matcher.known[id]) {
          expectReused += e - s;
          assert.ok(got.subarray(s, e).equals(target.subarray(s, e)), `block ${id} (chunk ${chunkBytes})`);
        }
      }
      assert.equal(reused, expectReused);
      results.push(Buffer.from(matcher.known));
      found.push(matcher.blocksFound);
    }
    for (const r of results) assert.deepEqual(r, results[0]);
    // 7 single-byte changes each spoil one block; everything else, the short last block included, is found.
    assert.equal(found[0], control.blockCount - 7);
  });

  void test('a missing seed is ZSYNC_SEED', async () => {
    const control = parseControlFile(await zsyncmake(join(dir, 'target.bin'), 'target.bin'));
    const out = await open(join(dir, 'unused'), 'w+');
    try {
      await assert.rejects(
        scanSeed({
          seedPath: join(dir, 'nope'),
          matcher: new BlockMatcher(control, await BlockHasher.create()),
          out,
          blockSize: control.blockSize,
          length: control.length,
        }),
        { code: 'ZSYNC_SEED' },
      );
    } finally {
      await out.close();
    }
  });
});
