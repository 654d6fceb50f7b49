import assert from 'node:assert/strict';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { withBlockMap } from '../../../fixtures/blockmap.js';
import { ChunkHasher } from '../../../src/transfer/blockmap/chunk-hasher.js';
import { ChunkReceiver } from '../../../src/transfer/blockmap/chunk-receiver.js';
import { parseBlockMap, tailJsonLength, type BlockMap } from '../../../src/transfer/blockmap/format.js';
import { KeeperError } from '../../../src/core/errors.js';
import { pseudoRandom, tempDir } from '../zsync/helpers.js';

function mapOf(file: Buffer): BlockMap {
  const length = tailJsonLength(file.subarray(file.length - 4), file.length)!;
  return parseBlockMap(file.subarray(file.length - 4 - length, file.length - 4), file.length)!;
}

void describe('ChunkReceiver', () => {
  const data = pseudoRandom(400_000, 9);

  /** Feeds `parts` (byte ranges of the file, each cut into `piece`-byte network chunks). */
  async function receive(
    parts: [number, number][],
    piece: number,
    body: (first: number, last: number) => Buffer = (a, b) => data.subarray(a, b + 1),
  ): Promise<{ known: Uint8Array; written: Buffer; map: BlockMap }> {
    const file = await withBlockMap(data);
    const map = mapOf(file);
    const { dir, cleanup } = await tempDir();
    try {
      const out = await open(join(dir, 'out'), 'w+');
      const known = new Uint8Array(map.sizes.length);
      const r = new ChunkReceiver(map, await ChunkHasher.create(), known, out, 'http://x/');
      for (const [first, last] of parts) {
        r.beginPart({ first, last, total: file.length });
        const bytes = body(first, last);
        for (let at = 0; at < bytes.length; at += piece) r.data(bytes.subarray(at, at + piece));
        r.endPart();
      }
      await r.flush();
      await out.close();
      return { known, written: await readFile(join(dir, 'out')), map };
    } finally {
      await cleanup();
    }
  }

  void test('whole chunks in odd network pieces are verified and written at their offsets', async () => {
    const { known, written, map } = await receive([[0, data.length - 1]], 1000);
    assert.ok(known.every((k) => k === 1));
    assert.ok(written.subarray(0, data.length).equals(data));
    assert.equal(map.offsets.length, known.length);
  });

  void test('a part starting or ending inside a chunk yields only the chunks it covers whole', async () => {
    const file = mapOf(await withBlockMap(data));
    const [a, b, c] = [file.offsets[2]!, file.offsets[5]!, file.offsets[7]!];
    // From the middle of chunk 1 to the middle of chunk 6: chunks 2..5 are whole.
    const { known, written } = await receive([[a - 100, c - 100]], 777);
    assert.deepEqual([...known.slice(0, 8)], [0, 0, 1, 1, 1, 1, 0, 0], 'only the covered chunks are known');
    assert.ok(written.subarray(a, b).equals(data.subarray(a, b)));
  });

  void test('a chunk whose bytes do not match the map is refused', async () => {
    await assert.rejects(
      receive([[0, 50_000]], 4096, (a, b) => {
        const bad = Buffer.from(data.subarray(a, b + 1));
        bad[10] = bad[10]! ^ 1;
        return bad;
      }),
      (err: unknown) => err instanceof KeeperError && err.code === 'BLOCKMAP_CHUNK_CHECKSUM',
    );
  });

  void test('a part of another file size is refused', async () => {
    const file = await withBlockMap(data);
    const map = mapOf(file);
    const { dir, cleanup } = await tempDir();
    try {
      const out = await open(join(dir, 'out'), 'w+');
      const r = new ChunkReceiver(
        map,
        await ChunkHasher.create(),
        new Uint8Array(map.sizes.length),
        out,
        'u',
      );
      assert.throws(
        () => r.beginPart({ first: 0, last: 9, total: file.length + 1 }),
        (err: unknown) => err instanceof KeeperError && err.code === 'BLOCKMAP_TARGET_CHANGED',
      );
      await out.close();
    } finally {
      await cleanup();
    }
  });
});
