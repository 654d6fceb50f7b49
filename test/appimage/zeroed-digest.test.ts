// The signed digest computed in the download's pass (ZeroedDigestTap) equals the one computed by
// reading the file and the one the fixture signer computed from readelf's offsets, whatever the
// chunking; it gives up (undefined) for unsigned files, non-ELF data and a layout it cannot see early.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createGpgHome, type GpgHome } from '../../fixtures/gpg.js';
import { makeAppImage } from '../../fixtures/make-appimage.js';
import { zeroedDigest } from '../../fixtures/sign-appimage.js';
import { readEmbeddedSignature, sha256WithZeroedRanges } from '../../src/appimage/embedded-signature.js';
import { ZeroedDigestTap } from '../../src/appimage/zeroed-digest.js';
import { tempDir } from './helpers.js';

function feed(tap: ZeroedDigestTap, data: Buffer, sizes: number[]): void {
  let pos = 0;
  for (let i = 0; pos < data.length; i++) {
    const n = sizes[i % sizes.length] ?? 1;
    tap.update(data.subarray(pos, pos + n));
    pos += n;
  }
}

void describe('signed digest in the download pass', () => {
  let gpg: GpgHome;
  let dir: string;
  let cleanup: () => Promise<void>;
  let signedFile: string;
  let unsignedFile: string;
  before(async () => {
    ({ dir, cleanup } = await tempDir());
    gpg = await createGpgHome();
    const key = await gpg.generateKey('ed25519', 'Tap <tap@example.invalid>');
    signedFile = join(dir, 'signed.AppImage');
    unsignedFile = join(dir, 'unsigned.AppImage');
    await makeAppImage({
      outFile: signedFile,
      name: 'tap',
      version: '1',
      padBytes: 300_000,
      sign: { gnupgHome: gpg.home, key, mode: 'text', digest: 'SHA256' },
    });
    await makeAppImage({ outFile: unsignedFile, name: 'tap', version: '1', signatureSections: true });
  });
  after(async () => {
    await gpg.dispose();
    await cleanup();
  });

  void test('equals the file pass and the fixture signer, for any chunking, after a reset too', async () => {
    const data = await readFile(signedFile);
    const embedded = await readEmbeddedSignature(signedFile);
    assert.ok(embedded);
    const fromFile = await sha256WithZeroedRanges(signedFile, embedded.zeroRanges);
    assert.equal(fromFile, await zeroedDigest(signedFile));
    for (const sizes of [[data.length], [1, 7, 63, 64, 65], [4096], [65536, 3], [100_000]]) {
      const tap = new ZeroedDigestTap(data.length);
      feed(tap, data.subarray(0, 5000), [1000]);
      tap.reset();
      feed(tap, data, sizes);
      const r = tap.result(data.length);
      assert.equal(r?.digest, fromFile, `chunks ${sizes.join(',')}`);
      assert.deepEqual(r?.ranges, embedded.zeroRanges);
    }
  });

  void test('a different byte count, an unsigned file or non-ELF data give no digest', async () => {
    const signed = await readFile(signedFile);
    const short = new ZeroedDigestTap();
    feed(short, signed.subarray(0, signed.length - 1), [65536]);
    assert.equal(short.result(signed.length), undefined);
    const unsigned = new ZeroedDigestTap();
    feed(unsigned, await readFile(unsignedFile), [65536]);
    assert.equal(unsigned.result(), undefined);
    const html = new ZeroedDigestTap();
    feed(html, Buffer.from('<!doctype html>'.repeat(100)), [64]);
    assert.equal(html.result(), undefined);
  });
});
