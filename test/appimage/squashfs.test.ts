import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packAppDir } from '../../fixtures/make-appimage.js';
import { readElfInfo } from '../../src/appimage/elf.js';
import { openSquashfs } from '../../src/appimage/squashfs/index.js';
import { KeeperError } from '../../src/core/errors.js';
import { snapshotDir, snapshotImage, tempDir, unsquashfs } from './helpers.js';

/** A pseudo-random but compressible pattern, so blocks really get compressed. */
function pattern(size: number, seed: number): Buffer {
  const buf = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    if (i % 64 === 0) x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    buf[i] = (x >>> (i % 24)) & 0x3f;
  }
  return buf;
}

/** An AppDir exercising every structure the reader handles. */
async function buildAppDir(dir: string): Promise<void> {
  await mkdir(join(dir, 'usr/lib/deep/er/still/deeper'), { recursive: true });
  await mkdir(join(dir, 'many'), { recursive: true });
  await mkdir(join(dir, 'empty'));
  await writeFile(join(dir, 'app.desktop'), '[Desktop Entry]\nType=Application\nName=App\nExec=app\n');
  await writeFile(join(dir, 'small.txt'), 'tiny file in a fragment\n');
  await writeFile(join(dir, 'usr/lib/deep/er/still/deeper/leaf.txt'), 'leaf\n');
  await writeFile(join(dir, 'usr/lib/multi.bin'), pattern(3 * 4096 + 1000, 7)); // 3 blocks + tail
  await writeFile(join(dir, 'usr/lib/exact.bin'), pattern(2 * 4096, 9)); // no tail at all
  await writeFile(
    join(dir, 'usr/lib/random.bin'),
    Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251)),
  );
  // Hard link: forces an extended file inode (link count > 1).
  await link(join(dir, 'usr/lib/multi.bin'), join(dir, 'usr/lib/multi-hardlink.bin'));
  // A file of zeros between data: mksquashfs stores sparse blocks for all-zero blocks.
  const sparse = Buffer.concat([pattern(4096, 3), Buffer.alloc(3 * 4096), pattern(100, 4)]);
  await writeFile(join(dir, 'usr/lib/sparse.bin'), sparse);
  // 300 entries: several directory headers and an extended directory inode with an index.
  for (let i = 0; i < 300; i++) {
    await writeFile(
      join(dir, 'many', `entry-with-a-longish-name-${String(i).padStart(4, '0')}.txt`),
      `n${i}\n`,
    );
  }
  await writeFile(join(dir, 'usr/lib/noise.bin'), randomBytes(256 * 1024)); // incompressible bulk
  await symlink('usr/lib/multi.bin', join(dir, 'link-to-multi'));
  await symlink('lib/deep/er', join(dir, 'usr/share-link'));
  await symlink('still/deeper/leaf.txt', join(dir, 'usr/lib/deep/er/leaf-link'));
}

for (const compression of ['gzip', 'xz', 'zstd', 'lz4'] as const) {
  void describe(`SquashFS reader (${compression})`, () => {
    let tmp: Awaited<ReturnType<typeof tempDir>>;
    let file: string;
    let offset: number;

    before(async () => {
      tmp = await tempDir();
      const appDir = join(tmp.dir, 'AppDir');
      await mkdir(appDir);
      await buildAppDir(appDir);
      file = join(tmp.dir, 'test.AppImage');
      await packAppDir({ appDir, outFile: file, message: 'x\n', compression, blockSize: 4096 });
      offset = (await readElfInfo(file)).payloadOffset;
    });
    after(() => tmp.cleanup());

    void test('reads every file, directory and symlink exactly as unsquashfs extracts them', async () => {
      const ref = join(tmp.dir, 'ref');
      unsquashfs(file, offset, ref);
      const expected = await snapshotDir(ref);
      const image = await openSquashfs(file, offset);
      try {
        const actual = await snapshotImage(image);
        assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort());
        for (const [path, node] of expected) assert.deepEqual(actual.get(path), node, path);
        assert.ok(expected.size > 310);
      } finally {
        await image.close();
      }
    });

    void test('follows symlinks inside the image and resolves canonical paths', async () => {
      const image = await openSquashfs(file, offset);
      try {
        assert.equal(
          await image.resolve('usr/share-link/leaf-link'),
          '/usr/lib/deep/er/still/deeper/leaf.txt',
        );
        assert.equal((await image.readFile('/usr/share-link/leaf-link')).toString(), 'leaf\n');
        assert.equal((await image.stat('link-to-multi')).size, 3 * 4096 + 1000);
        assert.equal((await image.lstat('link-to-multi')).type, 'symlink');
        assert.equal(await image.readlink('link-to-multi'), 'usr/lib/multi.bin');
        assert.deepEqual(await image.readdir('empty'), []);
        const st = await image.stat('small.txt');
        assert.equal(st.type, 'file');
        assert.equal(st.mode, 0o644);
        assert.equal(st.uid, 0);
      } finally {
        await image.close();
      }
    });

    void test('reads lazily: one small file costs a small fraction of the image', async () => {
      const image = await openSquashfs(file, offset);
      try {
        await image.readFile('app.desktop');
        const { size } = await stat(file);
        assert.ok(image.bytesRead < size / 10, `${image.bytesRead} of ${size}`);
      } finally {
        await image.close();
      }
    });
  });
}

void describe('SquashFS reader errors', () => {
  void test('refuses unsupported compressors, missing paths and oversized reads with clear codes', async () => {
    const tmp = await tempDir();
    try {
      const appDir = join(tmp.dir, 'AppDir');
      await mkdir(appDir);
      await writeFile(join(appDir, 'a.txt'), 'hello');
      await writeFile(join(appDir, 'big.bin'), Buffer.alloc(100_000, 1));
      const lzo = join(tmp.dir, 'lzo.AppImage');
      await packAppDir({ appDir, outFile: lzo, message: 'x\n', compression: 'lzo' });
      await assert.rejects(openSquashfs(lzo, (await readElfInfo(lzo)).payloadOffset), {
        code: 'SQUASHFS_UNSUPPORTED_COMPRESSOR',
        message: /lzo/,
      });

      const gz = join(tmp.dir, 'gz.AppImage');
      await packAppDir({ appDir, outFile: gz, message: 'x\n' });
      const image = await openSquashfs(gz, (await readElfInfo(gz)).payloadOffset);
      try {
        await assert.rejects(image.readFile('nope'), { code: 'SQUASHFS_NOT_FOUND' });
        await assert.rejects(image.readFile('a.txt/x'), { code: 'SQUASHFS_NOT_DIR' });
        await assert.rejects(image.readdir('a.txt'), { code: 'SQUASHFS_NOT_DIR' });
        await assert.rejects(image.readFile('big.bin', { maxBytes: 1000 }), {
          code: 'SQUASHFS_FILE_TOO_LARGE',
        });
        await assert.rejects(image.readFile('../a.txt'), { code: 'SQUASHFS_UNSAFE_LINK' });
        assert.equal((await image.readFile('./a.txt')).toString(), 'hello');
      } finally {
        await image.close();
      }
      await assert.rejects(
        openSquashfs(gz, 0),
        (err: unknown) => err instanceof KeeperError && err.code === 'SQUASHFS_NOT_FOUND',
      );
    } finally {
      await tmp.cleanup();
    }
  });

  void test(
    'xz images using BCJ filters fail with a clear unsupported-filter error',
    { skip: process.arch !== 'x64' },
    async () => {
      const tmp = await tempDir();
      try {
        const appDir = join(tmp.dir, 'AppDir');
        await mkdir(appDir);
        await copyFile('/bin/ls', join(appDir, 'ls')); // x86 machine code: mksquashfs picks the BCJ filter
        const file = join(tmp.dir, 'bcj.AppImage');
        await packAppDir({
          appDir,
          outFile: file,
          message: 'x\n',
          compression: 'xz',
          mksquashfsArgs: ['-Xbcj', 'x86'],
        });
        const image = await openSquashfs(file, (await readElfInfo(file)).payloadOffset);
        try {
          await assert.rejects(image.readFile('ls'), {
            code: 'SQUASHFS_UNSUPPORTED_COMPRESSOR',
            message: /BCJ filters \(x86\)/,
          });
        } finally {
          await image.close();
        }
      } finally {
        await tmp.cleanup();
      }
    },
  );
});
