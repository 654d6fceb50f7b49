import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { blockMapJson, chunkSizes, withBlockMap, withTail } from '../../../fixtures/blockmap.js';
import { parseBlockMap, tailJsonLength } from '../../../src/transfer/blockmap/format.js';
import { planCopies } from '../../../src/transfer/blockmap/plan.js';
import { pseudoRandom } from '../zsync/helpers.js';

/** The block map of a file with a tail, or undefined. */
function mapOf(file: Buffer): ReturnType<typeof parseBlockMap> {
  const length = tailJsonLength(file.subarray(file.length - 4), file.length);
  if (length === undefined) return undefined;
  return parseBlockMap(file.subarray(file.length - 4 - length, file.length - 4), file.length);
}

/** A file whose tail is `json` (an object or raw text), deflated. */
function withJson(data: Buffer, json: unknown): Buffer {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  return withTail(data, deflateRawSync(Buffer.from(text)));
}

void describe('block map detection', () => {
  const data = pseudoRandom(300_000, 5);

  void test('a tail written like electron-builder parses; chunks and tail add up to the file', async () => {
    const file = await withBlockMap(data);
    const map = mapOf(file);
    assert.ok(map);
    assert.equal(map.fileSize, file.length);
    assert.equal(map.sizes.reduce((a, b) => a + b, 0) + map.tailSize, file.length);
    assert.deepEqual(map.sizes, chunkSizes(data));
    assert.equal(map.offsets[1], map.sizes[0]);
    assert.ok(map.sizes.every((s) => s >= 8192 && s <= 32768) || map.sizes.length === 1);
    assert.ok(map.checksums.every((c) => c.length === 24));
  });

  void test('anything else is "no block map"', async () => {
    const good = JSON.parse(await blockMapJson(data)) as {
      version: string;
      files: { name: string; offset: number; checksums: string[]; sizes: number[] }[];
    };
    const file0 = good.files[0]!;
    const variants: [string, Buffer][] = [
      ['no tail at all', data],
      ['a tail one byte short of the file', withJson(data.subarray(1), good)],
      [
        'sizes one byte too many',
        withJson(data, {
          ...good,
          files: [{ ...file0, sizes: [...file0.sizes.slice(0, -1), file0.sizes.at(-1)! + 1] }],
        }),
      ],
      ['version 1', withJson(data, { ...good, version: '1' })],
      ['two files', withJson(data, { ...good, files: [file0, file0] })],
      ['offset not 0', withJson(data, { ...good, files: [{ ...file0, offset: 1 }] })],
      [
        'a checksum of 16 bytes',
        withJson(data, {
          ...good,
          files: [
            { ...file0, checksums: [Buffer.alloc(16).toString('base64'), ...file0.checksums.slice(1)] },
          ],
        }),
      ],
      [
        'a size of 0',
        withJson(data, {
          ...good,
          files: [
            { ...file0, sizes: [0, ...file0.sizes], checksums: [file0.checksums[0]!, ...file0.checksums] },
          ],
        }),
      ],
      [
        'checksums and sizes of different lengths',
        withJson(data, { ...good, files: [{ ...file0, checksums: file0.checksums.slice(1) }] }),
      ],
      ['not JSON', withJson(data, 'version 2, trust me')],
      ['not deflated', withTail(data, Buffer.from(JSON.stringify(good)))],
    ];
    for (const [what, file] of variants) assert.equal(mapOf(file), undefined, what);
  });

  void test('a tail that inflates to more than the bound is rejected without inflating it all', () => {
    // 200 MiB of spaces deflate to ~200 KB: a bomb for a naive reader.
    const bomb = deflateRawSync(Buffer.alloc(200 * 1024 * 1024, 0x20));
    assert.equal(parseBlockMap(bomb, data.length + bomb.length + 4), undefined);
  });

  void test('an implausible length in the last 4 bytes is no block map', () => {
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(1000);
    assert.equal(tailJsonLength(trailer, 1004), undefined, 'the tail would fill the whole file');
    assert.equal(tailJsonLength(trailer, 5000), 1000);
    trailer.writeUInt32BE(0xffffffff);
    assert.equal(tailJsonLength(trailer, 2 ** 40), undefined, 'larger than any real block map');
    trailer.writeUInt32BE(0);
    assert.equal(tailJsonLength(trailer, 5000), undefined);
  });
});

void describe('copy plan', () => {
  void test('shared chunks become copy runs from where they sit in the old file', async () => {
    const a = pseudoRandom(400_000, 1);
    const b = pseudoRandom(50_000, 2);
    // The new file: a's second half, new bytes, a's first half.
    const next = Buffer.concat([a.subarray(200_000), b, a.subarray(0, 200_000)]);
    const oldMap = mapOf(await withBlockMap(a));
    const newMap = mapOf(await withBlockMap(next));
    assert.ok(oldMap && newMap);
    const runs = planCopies(oldMap, newMap);
    let copied = 0;
    for (const r of runs) {
      for (let i = r.first; i <= r.last; i++) copied += newMap.sizes[i]!;
      // Every copied chunk's bytes in the old file equal the new file's bytes.
      const start = newMap.offsets[r.first]!;
      const end = newMap.offsets[r.last]! + newMap.sizes[r.last]!;
      assert.ok(next.subarray(start, end).equals(a.subarray(r.from, r.from + end - start)));
    }
    assert.ok(runs.length >= 2 && runs.length <= 6, `${runs.length} runs`);
    assert.ok(copied > 400_000 - 4 * 32768, `copied ${copied}`);
    assert.ok(copied <= 400_000);
  });
});
