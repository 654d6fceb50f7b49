import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMD4 } from 'hash-wasm';
import { KeeperError } from '../../../src/core/errors.js';
import { parseControlFile } from '../../../src/transfer/zsync/index.js';
import { blockRsum, rsumMasks } from '../../../src/transfer/zsync/rolling-checksum.js';
import { pseudoRandom, sha1, tempDir, writeFiles, zsyncmake } from './helpers.js';

function control(headers: string[], body: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([Buffer.from(`${headers.join('\n')}\n\n`), body]);
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof KeeperError, String(err));
    return err.code;
  }
  assert.fail('expected a KeeperError');
}

const BASE = ['zsync: 0.6.2', 'Blocksize: 2048', 'Length: 5000', 'Hash-Lengths: 2,2,4', 'URL: app.AppImage'];
// 3 blocks of (2 rsum + 4 checksum) bytes.
const BODY = Buffer.alloc(18, 7);

void describe('parseControlFile on zsyncmake output', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  before(async () => ({ dir, cleanup } = await tempDir()));
  after(async () => cleanup());

  void test('headers, hash lengths and every block checksum match the file', async () => {
    const data = pseudoRandom(100_000, 3);
    await writeFiles(dir, { 'app.AppImage': data });
    const c = parseControlFile(await zsyncmake(join(dir, 'app.AppImage'), 'app.AppImage'));
    assert.equal(c.version, '0.6.2');
    assert.equal(c.filename, 'app.AppImage');
    assert.equal(c.length, 100_000);
    assert.equal(c.blockSize, 2048);
    assert.equal(c.blockCount, Math.ceil(100_000 / 2048));
    assert.deepEqual(c.urls, ['app.AppImage']);
    assert.equal(c.sha1, sha1(data));
    assert.ok(c.mtime instanceof Date);
    // zsyncmake picks seq_matches 2 for files longer than one block.
    assert.equal(c.seqMatches, 2);
    assert.ok(c.rsumBytes >= 2 && c.rsumBytes <= 4);
    assert.ok(c.checksumBytes >= 3 && c.checksumBytes <= 16);

    const md4 = await createMD4();
    const masks = rsumMasks(c.rsumBytes);
    for (let id = 0; id < c.blockCount; id++) {
      const block = Buffer.alloc(c.blockSize);
      data.copy(block, 0, id * c.blockSize, Math.min((id + 1) * c.blockSize, data.length));
      const r = blockRsum(block, 0, c.blockSize);
      const key = (((r >>> 16) & masks.a) << 16) | (r & masks.b);
      assert.equal(c.rsums[id], key >>> 0, `rsum of block ${id}`);
      md4.init();
      md4.update(block);
      const digest = md4.digest('binary');
      assert.deepEqual(
        Buffer.from(c.checksums.subarray(id * c.checksumBytes, (id + 1) * c.checksumBytes)),
        Buffer.from(digest.subarray(0, c.checksumBytes)),
        `md4 of block ${id}`,
      );
    }
  });

  void test('explicit block size and a one-block file (seq_matches 1)', async () => {
    await writeFiles(dir, { 'small.bin': pseudoRandom(1000, 9), 'big.bin': pseudoRandom(50_000, 5) });
    const small = parseControlFile(await zsyncmake(join(dir, 'small.bin'), 'http://example.test/small.bin'));
    assert.equal(small.seqMatches, 1);
    assert.equal(small.blockCount, 1);
    assert.deepEqual(small.urls, ['http://example.test/small.bin']);
    const big = parseControlFile(await zsyncmake(join(dir, 'big.bin'), 'big.bin', ['-b', '4096']));
    assert.equal(big.blockSize, 4096);
    assert.equal(big.blockCount, 13);
  });
});

void describe('parseControlFile on hand-written files', () => {
  void test('reads the block table with the declared hash lengths', () => {
    const body = Buffer.from([0x12, 0x34, 1, 2, 3, 4, 0xab, 0xcd, 5, 6, 7, 8, 0, 1, 9, 9, 9, 9]);
    const c = parseControlFile(control([...BASE, `SHA-1: ${'A'.repeat(40)}`], body));
    assert.equal(c.blockCount, 3);
    assert.deepEqual([...c.rsums], [0x1234, 0xabcd, 0x0001]);
    assert.deepEqual([...c.checksums], [1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9]);
    assert.equal(c.sha1, 'a'.repeat(40));
    assert.equal(c.seqMatches, 2);
  });

  void test('without Hash-Lengths the old defaults apply (1,4,16)', () => {
    const headers = BASE.filter((h) => !h.startsWith('Hash-Lengths'));
    const c = parseControlFile(control(headers, Buffer.alloc(3 * 20)));
    assert.equal(c.seqMatches, 1);
    assert.equal(c.rsumBytes, 4);
    assert.equal(c.checksumBytes, 16);
  });

  void test('CRLF line ends and several URLs', () => {
    const text = [...BASE, 'URL: http://mirror.test/app.AppImage'].join('\r\n');
    const c = parseControlFile(Buffer.concat([Buffer.from(`${text}\r\n\r\n`), BODY]));
    assert.deepEqual(c.urls, ['app.AppImage', 'http://mirror.test/app.AppImage']);
  });

  void test('Z-Map2 binary data inside the headers is skipped', () => {
    const head = Buffer.from(`${BASE.join('\n')}\nZ-Map2: 2\n`);
    const map = Buffer.from('\n\n\n\n\n\n\n\n'); // 2 entries of 4 bytes that look like blank lines
    const c = parseControlFile(Buffer.concat([head, map, Buffer.from('Recompress: gzip -9\n\n'), BODY]));
    assert.equal(c.blockCount, 3);
    assert.equal(c.checksums[0], 7);
  });

  void test('rejects malformed files', () => {
    assert.equal(
      code(() => parseControlFile(Buffer.from('<!DOCTYPE html>\n<html>\n\n'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(control(BASE, BODY.subarray(0, 17)))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(Buffer.from(BASE.join('\n')))),
      'ZSYNC_CONTROL_INVALID',
    );
    const swap = (from: string, to: string): Buffer =>
      control(
        BASE.map((h) => (h.startsWith(from) ? to : h)),
        BODY,
      );
    assert.equal(
      code(() => parseControlFile(swap('Blocksize', 'Blocksize: 3000'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Blocksize', 'Blocksize: 0'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Length', 'Length: -5'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Length', 'Length: 99999999999999999'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Hash-Lengths', 'Hash-Lengths: 3,2,4'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Hash-Lengths', 'Hash-Lengths: 2,5,4'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Hash-Lengths', 'Hash-Lengths: 2,2,2'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('Hash-Lengths', 'Hash-Lengths: 2,2'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(swap('URL', 'Filename: x'))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(control([...BASE, 'SHA-1: 1234'], BODY))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(control([...BASE, 'Length: 5000'], BODY))),
      'ZSYNC_CONTROL_INVALID',
    );
    assert.equal(
      code(() => parseControlFile(control([...BASE, 'no colon here'], BODY))),
      'ZSYNC_CONTROL_INVALID',
    );
  });

  void test('unknown headers are fatal unless listed as Safe; newer formats are refused', () => {
    assert.equal(
      code(() => parseControlFile(control([...BASE, 'X-Future: 1'], BODY))),
      'ZSYNC_CONTROL_UNSUPPORTED',
    );
    const ok = parseControlFile(control([...BASE, 'Safe: X-Future X-Other', 'X-Future: 1'], BODY));
    assert.equal(ok.blockCount, 3);
    assert.equal(
      code(() => parseControlFile(control([...BASE, 'Min-Version: 0.7.0'], BODY))),
      'ZSYNC_CONTROL_UNSUPPORTED',
    );
    assert.equal(parseControlFile(control([...BASE, 'Min-Version: 0.6.2'], BODY)).minVersion, '0.6.2');
    assert.equal(
      code(() => parseControlFile(control(['zsync: 0.0.4', ...BASE.slice(1)], BODY))),
      'ZSYNC_CONTROL_UNSUPPORTED',
    );
  });
});
