import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packAppDir } from '../../fixtures/make-appimage.js';
import { readElfInfo } from '../../src/appimage/elf.js';
import { openAppImage } from '../../src/appimage/open-appimage.js';
import { openSquashfs, type SquashfsImage } from '../../src/appimage/squashfs/index.js';
import { KeeperError } from '../../src/core/errors.js';
import { tempDir } from './helpers.js';

const FILE_SIZE = 12345;

/** Reads everything reachable, the way integration and a curious caller would. */
async function walk(image: SquashfsImage, path = '/', depth = 0): Promise<void> {
  if (depth > 20) return;
  for (const e of await image.readdir(path)) {
    const child = path === '/' ? e.name : `${path}/${e.name}`;
    if (e.type === 'dir') await walk(image, child, depth + 1);
    else if (e.type === 'file') await image.readFile(child);
    else if (e.type === 'symlink') await image.readlink(child);
  }
}

void describe('hostile and corrupt SquashFS images', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  /** Uncompressed metadata so tests can find and patch structures by their bytes. */
  let plain: Buffer;
  let plainOffset: number;
  /** A normal gzip image. */
  let packed: Buffer;
  let packedOffset: number;
  let n = 0;

  async function patched(base: Buffer, patch: (b: Buffer) => void): Promise<string> {
    const copy = Buffer.from(base);
    patch(copy);
    const file = join(tmp.dir, `patched-${n++}.AppImage`);
    await writeFile(file, copy);
    return file;
  }

  async function expectCode(
    file: string,
    offset: number,
    code: string,
    action: (i: SquashfsImage) => Promise<unknown>,
  ): Promise<void> {
    const image = await openSquashfs(file, offset);
    try {
      await assert.rejects(action(image), (err: unknown) => {
        assert.ok(err instanceof KeeperError, `not a KeeperError: ${String(err)}`);
        assert.equal(err.code, code, err.message);
        return true;
      });
    } finally {
      await image.close();
    }
  }

  before(async () => {
    tmp = await tempDir();
    const appDir = join(tmp.dir, 'AppDir');
    await mkdir(join(appDir, 'sub'), { recursive: true });
    await writeFile(join(appDir, 'zz'), 'two-letter name\n');
    await writeFile(join(appDir, 'sub', 'sized'), Buffer.alloc(FILE_SIZE, 0x41));
    await writeFile(join(appDir, 'small'), 'fragment tail\n');
    await symlink('../../etc/passwd', join(appDir, 'evil'));
    await symlink('/etc/passwd', join(appDir, 'absolute'));
    await symlink('loop-b', join(appDir, 'loop-a'));
    await symlink('loop-a', join(appDir, 'loop-b'));
    await symlink('sub/../../x', join(appDir, 'sneaky'));
    const plainFile = join(tmp.dir, 'plain.AppImage');
    await packAppDir({
      appDir,
      outFile: plainFile,
      message: 'x\n',
      mksquashfsArgs: ['-noI', '-noD', '-noF'],
    });
    plain = await readFile(plainFile);
    plainOffset = (await readElfInfo(plainFile)).payloadOffset;
    const packedFile = join(tmp.dir, 'packed.AppImage');
    await packAppDir({ appDir, outFile: packedFile, message: 'x\n' });
    packed = await readFile(packedFile);
    packedOffset = (await readElfInfo(packedFile)).payloadOffset;
  });
  after(() => tmp.cleanup());

  void test('symlinks pointing outside the image, absolute or looping are refused', async () => {
    const file = await patched(plain, () => undefined);
    for (const [path, code] of [
      ['evil', 'SQUASHFS_UNSAFE_LINK'],
      ['absolute', 'SQUASHFS_UNSAFE_LINK'],
      ['sneaky', 'SQUASHFS_UNSAFE_LINK'],
      ['loop-a', 'SQUASHFS_SYMLINK_LOOP'],
    ] as const) {
      await expectCode(file, plainOffset, code, (i) => i.readFile(path));
      await expectCode(file, plainOffset, code, (i) => i.resolve(path));
    }
  });

  void test('a directory entry renamed to ".." or containing "/" is corruption, not a path', async () => {
    const at = plain.indexOf('zz', plainOffset);
    assert.ok(at > 0);
    for (const name of ['..', 'a/']) {
      const file = await patched(plain, (b) => b.write(name, at, 'latin1'));
      await expectCode(file, plainOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
    }
  });

  void test('absurd sizes and counts are refused before anything is allocated', async () => {
    // The file inode: its size field sits 28 bytes into a basic file inode (type 2).
    let sizeAt = -1;
    for (
      let p = plain.indexOf(Buffer.from([0x39, 0x30, 0, 0]), plainOffset);
      p > 0;
      p = plain.indexOf(Buffer.from([0x39, 0x30, 0, 0]), p + 1)
    ) {
      if (plain.readUInt16LE(p - 28) === 2) sizeAt = p;
    }
    assert.ok(sizeAt > 0, 'file inode found');
    let file = await patched(plain, (b) => b.writeUInt32LE(0xfffffff0, sizeAt));
    await expectCode(file, plainOffset, 'SQUASHFS_CORRUPT', (i) =>
      i.readFile('sub/sized', { maxBytes: 2 ** 40 }),
    );

    // Root listing: "absolute" is its first entry; its header (count-1, start, inode) precedes it.
    const first = plain.indexOf('absolute', plainOffset);
    const header = first - 8 - 12;
    file = await patched(plain, (b) => b.writeUInt32LE(0x00ffffff, header));
    await expectCode(file, plainOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
    file = await patched(plain, (b) => b.writeUInt16LE(0xfffe, first - 2)); // name size
    await expectCode(file, plainOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
    file = await patched(plain, (b) => b.writeUInt32LE(0xffffffff, header + 4)); // inode block
    await expectCode(file, plainOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
  });

  void test('a corrupt superblock is refused at open with a clear code', async () => {
    const cases: [string, (b: Buffer) => void, string][] = [
      [
        'bytes_used past the file',
        (b) => b.writeBigUInt64LE(BigInt(b.length) * 4n, packedOffset + 40),
        'SQUASHFS_CORRUPT',
      ],
      ['block log mismatch', (b) => b.writeUInt16LE(3, packedOffset + 22), 'SQUASHFS_CORRUPT'],
      ['tables out of order', (b) => b.writeBigUInt64LE(10n, packedOffset + 72), 'SQUASHFS_CORRUPT'],
      ['version 3.1', (b) => b.writeUInt16LE(3, packedOffset + 28), 'SQUASHFS_UNSUPPORTED_VERSION'],
      ['no magic', (b) => b.write('nope', packedOffset), 'SQUASHFS_NOT_FOUND'],
      ['zero inodes', (b) => b.writeUInt32LE(0, packedOffset + 4), 'SQUASHFS_CORRUPT'],
      [
        'root outside inode table',
        (b) => b.writeBigUInt64LE(0xffffffn << 16n, packedOffset + 32),
        'SQUASHFS_CORRUPT',
      ],
    ];
    for (const [what, patch, code] of cases) {
      const file = await patched(packed, patch);
      await assert.rejects(openSquashfs(file, packedOffset), { code }, what);
    }
    const truncated = join(tmp.dir, 'truncated.AppImage');
    const used = Number(packed.readBigUInt64LE(packedOffset + 40));
    await writeFile(truncated, packed.subarray(0, packedOffset + used - 10));
    await assert.rejects(openSquashfs(truncated, packedOffset), { code: 'SQUASHFS_CORRUPT' });
  });

  void test('garbage in compressed tables and bad table pointers are corruption', async () => {
    const sb = packed.subarray(packedOffset);
    const inodeStart = Number(sb.readBigUInt64LE(64));
    const fragStart = Number(sb.readBigUInt64LE(80));
    let file = await patched(packed, (b) =>
      b.fill(0x5a, packedOffset + inodeStart + 2, packedOffset + inodeStart + 40),
    );
    await expectCode(file, packedOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
    file = await patched(packed, (b) => b.writeUInt16LE(0x0000, packedOffset + inodeStart));
    await expectCode(file, packedOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
    file = await patched(packed, (b) => b.writeUInt16LE(0x7fff, packedOffset + inodeStart));
    await expectCode(file, packedOffset, 'SQUASHFS_CORRUPT', (i) => i.listRoot());
    file = await patched(packed, (b) => b.writeBigUInt64LE(0xffffffffffn, packedOffset + fragStart));
    await expectCode(file, packedOffset, 'SQUASHFS_CORRUPT', (i) => i.readFile('small'));
  });

  void test('random byte damage never hangs and only ever fails with KeeperError', async () => {
    let seed = 12345;
    const rand = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let failures = 0;
    for (let round = 0; round < 120; round++) {
      const base = round % 2 ? packed : plain;
      const offset = round % 2 ? packedOffset : plainOffset;
      const file = await patched(base, (b) => {
        for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) {
          const at = offset + Math.floor(rand() * (b.length - offset));
          b[at] = Math.floor(rand() * 256);
        }
      });
      try {
        const image = await openSquashfs(file, offset);
        try {
          await walk(image);
        } finally {
          await image.close();
        }
      } catch (err) {
        failures++;
        assert.ok(err instanceof KeeperError, `round ${round}: ${String(err)}`);
        assert.match(err.code, /^SQUASHFS_/);
      }
    }
    assert.ok(failures > 0, 'damage was noticed at least once');
  });

  void test('a type-1 AppImage (ISO 9660) is reported as unsupported', async () => {
    const file = await patched(packed, (b) => (b[10] = 1));
    await assert.rejects(openAppImage(file), { code: 'APPIMAGE_TYPE1_UNSUPPORTED' });
    const plainElf = await patched(packed, (b) => b.fill(0, 8, 11));
    await assert.rejects(openAppImage(plainElf), { code: 'NOT_APPIMAGE' });
  });
});
