/**
 * Hostile block map tails (issue 18 §2): a tail of ~48 KiB that inflates to 48 MiB of `[`, and
 * tails within the byte bound but too deep or too wide, are "no block map" with the reason, on a
 * tail read from the network and on the installed file alike; a real map still parses.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import { blockMapJson, withBlockMap, withTail } from '../../../fixtures/blockmap.js';
import { readLocalBlockMap } from '../../../src/transfer/blockmap/index.js';
import { blockMapLimits, decodeBlockMap, tailJsonLength } from '../../../src/transfer/blockmap/format.js';
import { pseudoRandom } from '../zsync/helpers.js';

/** The deflated tail of `file` and the reason it is refused ('' when it parses). */
function refusalOf(file: Buffer): string {
  const length = tailJsonLength(file.subarray(file.length - 4), file.length);
  assert.ok(length !== undefined, 'the tail length itself is plausible');
  const map = decodeBlockMap(file.subarray(file.length - 4 - length, file.length - 4), file.length);
  return 'refused' in map ? map.refused : '';
}

const tail = (text: string | Buffer): Buffer => deflateRawSync(Buffer.from(text), { level: 9 });

void describe('hostile block map tails', () => {
  const data = pseudoRandom(3 * 1024 * 1024, 18);
  const dirs: string[] = [];
  after(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  void test("the audit's tail (48 MiB of '[' deflated) stops inflating at the bound for the file's size", () => {
    const nested = tail(Buffer.alloc(48 * 1024 * 1024 - 1, '['));
    assert.ok(nested.length < 64 * 1024, `${nested.length} bytes deflated`);
    const file = withTail(data, nested);
    const { maxBytes } = blockMapLimits(file.length);
    assert.ok(maxBytes < 64 * 1024, `a 3 MiB file's map inflates to at most ${maxBytes} bytes`);
    assert.equal(
      refusalOf(file),
      `its JSON inflates to more than the ${maxBytes} bytes a map of ${file.length} bytes can need`,
    );
  });

  void test('a tail length beyond what the bound can deflate to is refused before the tail is read', () => {
    const { maxBytes } = blockMapLimits(data.length);
    const trailer = (n: number): Buffer => {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(n);
      return b;
    };
    // zlib's deflateBound of the bound: a few bytes more than it per 4 KiB at worst.
    assert.equal(tailJsonLength(trailer(maxBytes + 16), data.length), maxBytes + 16);
    assert.equal(tailJsonLength(trailer(2 * maxBytes), data.length), undefined);
    assert.equal(tailJsonLength(trailer(1024 * 1024), data.length), undefined);
  });

  void test('nesting within the byte bound is refused by depth before parsing', () => {
    const file = withTail(data, tail(`${'['.repeat(20_000)}${']'.repeat(20_000)}`));
    assert.equal(refusalOf(file), 'its JSON nests deeper than 8 levels');
  });

  void test('more values than the file can have chunks is refused before parsing', () => {
    const { maxValues } = blockMapLimits(data.length + 100);
    const wide = `{"version":"2","files":[{"offset":0,"sizes":[${'1,'.repeat(maxValues)}1]}]}`;
    assert.equal(refusalOf(withTail(data, tail(wide))), `its JSON holds more than ${maxValues} JSON values`);
  });

  void test('a real map sits well inside the bounds of its file', async () => {
    const json = await blockMapJson(data);
    const file = await withBlockMap(data);
    const limits = blockMapLimits(file.length);
    assert.ok(json.length * 1.5 < limits.maxBytes, `${json.length} of ${limits.maxBytes} bytes`);
    assert.equal(refusalOf(file), '');
    // Indented JSON (each value on a line of its own) still fits.
    const pretty = JSON.stringify(JSON.parse(json), null, 6);
    assert.equal(refusalOf(withTail(data, tail(pretty))), '');
  });

  void test('the installed file with a hostile tail has no block map', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-bm-hostile-'));
    dirs.push(dir);
    const path = join(dir, 'app.AppImage');
    await writeFile(path, withTail(data, tail(Buffer.alloc(48 * 1024 * 1024 - 1, '['))));
    assert.equal(await readLocalBlockMap(path), undefined);
    await writeFile(path, withTail(data, tail(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)));
    assert.equal(await readLocalBlockMap(path), undefined);
    await writeFile(path, await withBlockMap(data));
    assert.ok(await readLocalBlockMap(path), 'the same file with a real map has one');
  });
});
