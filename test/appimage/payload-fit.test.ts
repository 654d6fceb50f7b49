// A download cut short whose size nobody announced must not pass verification (VERIFY_TRUNCATED).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseElfHeader } from '../../src/appimage/elf.js';
import { verifyAppImage } from '../../src/appimage/verify.js';
import { elfBytes } from './elf-bytes.js';

const FIXTURE = new URL('../../fixtures/demo/hello-1.0.0.AppImage', import.meta.url).pathname;

void describe('verification: the payload must fit in the file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-fit-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  void test('a 2,000-byte prefix of a real 5,568-byte AppImage is refused without a known size', async () => {
    const full = await readFile(FIXTURE);
    assert.equal(full.length, 5568);
    const p = join(dir, 'cut.AppImage');
    await writeFile(p, full.subarray(0, 2000));
    await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'VERIFY_TRUNCATED');
      assert.match(err.message, /the file has 2000/);
      return true;
    });
  });

  void test('every prefix that cuts into the SquashFS is refused; the whole file passes', async () => {
    const full = await readFile(FIXTURE);
    const offset = parseElfHeader(full).payloadOffset;
    // mksquashfs pads the image to 4 KiB; the padding past bytes_used is not part of the file system.
    const end = offset + Number(full.readBigUInt64LE(offset + 40));
    assert.ok(end <= full.length && end > offset + 96);
    const p = join(dir, 'prefix.AppImage');
    await writeFile(p, full.subarray(0, end));
    await verifyAppImage(p, { hostArch: 'x86_64' });
    for (const len of [end - 1, end - 100, offset + 96, offset + 10, offset]) {
      await writeFile(p, full.subarray(0, len));
      await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), { code: 'VERIFY_TRUNCATED' }, `${len}`);
    }
    await writeFile(p, full);
    await verifyAppImage(p, { hostArch: 'x86_64' });
  });

  void test('a prefix that ends before the payload starts is refused', async () => {
    const data = elfBytes({ padding: 1024 });
    // Section header table ending at byte 4096 of a 1088-byte file.
    data.writeBigUInt64LE(4096n - 64n, 0x28);
    data.writeUInt16LE(64, 0x3a);
    data.writeUInt16LE(1, 0x3c);
    const p = join(dir, 'before.AppImage');
    await writeFile(p, data);
    await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), { code: 'VERIFY_TRUNCATED' });
  });

  void test('a type-1 image shorter than its ISO 9660 volume is refused', async () => {
    const data = elfBytes({ appImageType: 1, padding: 0x8100 });
    data[0x8000] = 1;
    data.write('CD001', 0x8001, 'latin1');
    data.writeUInt16LE(2048, 0x8000 + 128);
    data.writeUInt32LE(100, 0x8000 + 80); // 100 sectors of 2 KiB: far more than the file
    const p = join(dir, 'iso.AppImage');
    await writeFile(p, data);
    await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), { code: 'VERIFY_TRUNCATED' });
    data.writeUInt32LE(16, 0x8000 + 80); // 32 KiB: fits
    await writeFile(p, data);
    assert.equal((await verifyAppImage(p, { hostArch: 'x86_64' })).appImageType, 1);
  });
});
