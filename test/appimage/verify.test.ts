import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseChecksumFile, verifyAppImage } from '../../src/appimage/verify.js';
import { sha256 } from '../helpers/sha256.js';
import { EM_AARCH64, elfBytes } from './elf-bytes.js';

void describe('verifyAppImage', () => {
  let dir: string;
  const put = async (name: string, data: Buffer | string): Promise<string> => {
    const p = join(dir, name);
    await writeFile(p, data);
    return p;
  };
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  void test('a type-2 x86_64 AppImage passes every check', async () => {
    const data = elfBytes();
    const p = await put('ok.AppImage', data);
    assert.deepEqual(
      await verifyAppImage(p, { size: data.length, sha256: sha256(data), hostArch: 'x86_64' }),
      {
        arch: 'x86_64',
        appImageType: 2,
      },
    );
    // Forge digests come as `sha256:<hex>`, sometimes upper case.
    await verifyAppImage(p, { sha256: `sha256:${sha256(data).toUpperCase()}`, hostArch: 'x86_64' });
  });

  void test('a real AppImage fixture passes', async () => {
    const p = new URL('../../fixtures/demo/hello-1.0.0.AppImage', import.meta.url).pathname;
    assert.deepEqual(await verifyAppImage(p, { hostArch: 'x86_64' }), { arch: 'x86_64', appImageType: 2 });
  });

  void test('VERIFY_SIZE', async () => {
    const data = elfBytes();
    const p = await put('size.AppImage', data);
    await assert.rejects(
      verifyAppImage(p, { size: data.length + 1, hostArch: 'x86_64' }),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'VERIFY_SIZE');
        assert.match(err.message, new RegExp(`expected ${data.length + 1} bytes, got ${data.length}`));
        return true;
      },
    );
  });

  void test('VERIFY_DIGEST shows expected and actual', async () => {
    const data = elfBytes();
    const p = await put('digest.AppImage', data);
    const wrong = 'a'.repeat(64);
    await assert.rejects(
      verifyAppImage(p, { sha256: wrong, hostArch: 'x86_64' }),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'VERIFY_DIGEST');
        assert.ok(err.message.includes(wrong) && err.message.includes(sha256(data)), err.message);
        return true;
      },
    );
  });

  void test('the digest computed while downloading is used instead of re-reading', async () => {
    const data = elfBytes();
    const p = await put('computed.AppImage', data);
    const other = 'b'.repeat(64);
    await assert.rejects(verifyAppImage(p, { sha256: sha256(data), hostArch: 'x86_64' }, other), {
      code: 'VERIFY_DIGEST',
    });
    await verifyAppImage(p, { sha256: other, hostArch: 'x86_64' }, other);
  });

  void test('VERIFY_NOT_ELF says when an HTML page came instead', async () => {
    const p = await put('page.AppImage', '<!DOCTYPE html>\n<html><body>Sign in</body></html>');
    await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'VERIFY_NOT_ELF');
      assert.match(err.message, /HTML page/);
      return true;
    });
    const json = await put('api.AppImage', '{"message":"Not Found"}');
    await assert.rejects(verifyAppImage(json, { hostArch: 'x86_64' }), /JSON/);
    const empty = await put('empty.AppImage', '');
    await assert.rejects(verifyAppImage(empty, { hostArch: 'x86_64' }), {
      code: 'VERIFY_NOT_ELF',
      message: /empty/,
    });
  });

  void test('VERIFY_NOT_APPIMAGE for a plain ELF binary', async () => {
    const p = await put('plain-elf', elfBytes({ appImageType: 0 }));
    await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), { code: 'VERIFY_NOT_APPIMAGE' });
  });

  void test('a type-1 AppImage without magic is recognised by its ISO 9660 descriptor', async () => {
    const data = elfBytes({ appImageType: 0, padding: 0x8100 });
    data.write('CD001', 0x8001, 'latin1');
    const p = await put('type1.AppImage', data);
    assert.deepEqual(await verifyAppImage(p, { hostArch: 'x86_64' }), { arch: 'x86_64', appImageType: 1 });
  });

  void test('VERIFY_ARCH names both architectures', async () => {
    const p = await put('arm.AppImage', elfBytes({ machine: EM_AARCH64 }));
    await assert.rejects(verifyAppImage(p, { hostArch: 'x86_64' }), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'VERIFY_ARCH');
      assert.match(err.message, /built for aarch64, this machine is x86_64/);
      return true;
    });
    assert.deepEqual(await verifyAppImage(p, { hostArch: 'aarch64' }), { arch: 'aarch64', appImageType: 2 });
  });

  void test('checks run in order: a wrong size is reported before a wrong architecture', async () => {
    const data = elfBytes({ machine: EM_AARCH64 });
    const p = await put('order.AppImage', data);
    await assert.rejects(verifyAppImage(p, { size: 1, sha256: 'c'.repeat(64), hostArch: 'x86_64' }), {
      code: 'VERIFY_SIZE',
    });
    await assert.rejects(verifyAppImage(p, { sha256: 'c'.repeat(64), hostArch: 'x86_64' }), {
      code: 'VERIFY_DIGEST',
    });
  });
});

void describe('parseChecksumFile', () => {
  const h1 = '0123456789abcdef'.repeat(4);
  const h2 = 'fedcba9876543210'.repeat(4);

  void test('bare hex (.sha256 with only the digest)', () => {
    assert.equal(parseChecksumFile(`${h1.toUpperCase()}\n`, 'App.AppImage'), h1);
  });

  void test('`hex  name` and `hex *name` lines pick the named asset', () => {
    const sums = `${h2}  Other-x86_64.AppImage\n${h1} *App-x86_64.AppImage\n`;
    assert.equal(parseChecksumFile(sums, 'App-x86_64.AppImage'), h1);
    assert.equal(parseChecksumFile(sums, 'Other-x86_64.AppImage'), h2);
    assert.equal(parseChecksumFile(sums, 'Missing.AppImage'), undefined);
  });

  void test('paths in the list match by file name; CRLF and comments are fine', () => {
    const sums = `# release sums\r\n${h1}  ./dist/App.AppImage\r\n`;
    assert.equal(parseChecksumFile(sums, 'App.AppImage'), h1);
  });

  void test('BSD style `SHA256 (name) = hex`', () => {
    assert.equal(parseChecksumFile(`SHA256 (App.AppImage) = ${h1}\n`, 'App.AppImage'), h1);
  });

  void test('a single line naming another file is not taken for ours', () => {
    assert.equal(parseChecksumFile(`${h1}  Else.AppImage\n`, 'App.AppImage'), undefined);
    assert.equal(parseChecksumFile('not a checksum', 'App.AppImage'), undefined);
  });
});
