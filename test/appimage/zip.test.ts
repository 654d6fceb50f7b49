import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { extractAppImageFromZip, isZip } from '../../src/appimage/zip.js';
import { EM_AARCH64, elfBytes } from './elf-bytes.js';
import { writeZip } from '../helpers/zip-writer.js';

const PREFIX = '.appimage-keeper-zip-';

void describe('ZIP assets', () => {
  let root: string;
  let out: string;
  let n = 0;

  /** Zips `files` (relative path -> content) with the zip CLI, deflated; returns the archive path. */
  const zipWithCli = async (files: Record<string, Buffer | string>): Promise<string> => {
    const src = join(root, `src-${++n}`);
    for (const [rel, data] of Object.entries(files)) {
      await mkdir(dirname(join(src, rel)), { recursive: true });
      await writeFile(join(src, rel), data);
    }
    const archive = join(root, `a-${n}.zip`);
    execFileSync('zip', ['-q', '-r', archive, ...Object.keys(files)], { cwd: src });
    return archive;
  };
  const rawZip = async (entries: Parameters<typeof writeZip>[0]): Promise<string> => {
    const archive = join(root, `raw-${++n}.zip`);
    await writeFile(archive, writeZip(entries));
    return archive;
  };
  const outNames = async (): Promise<string[]> => (await readdir(out)).sort();

  const x64 = elfBytes({ padding: 50_000 });
  const arm = elfBytes({ machine: EM_AARCH64, padding: 40_000 });

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ak-'));
    out = join(root, 'out');
    await mkdir(out);
  });
  after(async () => rm(root, { recursive: true, force: true }));

  const cleanOut = async (): Promise<void> => {
    for (const name of await readdir(out)) await rm(join(out, name), { force: true });
  };

  void test('isZip recognises archives and nothing else', async () => {
    const archive = await zipWithCli({ 'a.txt': 'x' });
    assert.equal(await isZip(archive), true);
    const notZip = join(root, 'plain.AppImage');
    await writeFile(notZip, x64);
    assert.equal(await isZip(notZip), false);
    const tiny = join(root, 'tiny');
    await writeFile(tiny, 'P');
    assert.equal(await isZip(tiny), false);
  });

  void test('innerMatch without / matches the file name anywhere in the archive', async () => {
    const archive = await zipWithCli({
      'README.md': 'readme',
      'dist/Foo-1.0-x86_64.AppImage': x64,
      'dist/Foo-1.0-aarch64.AppImage': arm,
    });
    const r = await extractAppImageFromZip(archive, out, PREFIX, 'Foo-*-x86_64.AppImage');
    assert.equal(r.entryName, 'dist/Foo-1.0-x86_64.AppImage');
    assert.ok(r.path.startsWith(join(out, PREFIX)));
    assert.deepEqual(await readFile(r.path), x64);
    await cleanOut();
  });

  void test('innerMatch with / matches the whole path', async () => {
    const archive = await zipWithCli({
      'x64/Foo.AppImage': x64,
      'arm/Foo.AppImage': arm,
    });
    const r = await extractAppImageFromZip(archive, out, PREFIX, 'arm/*.AppImage');
    assert.equal(r.entryName, 'arm/Foo.AppImage');
    assert.deepEqual(await readFile(r.path), arm);
    // Without a slash the pattern looks at names only, so both entries match.
    await assert.rejects(
      extractAppImageFromZip(archive, out, PREFIX, 'Foo.AppImage'),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'ZIP_AMBIGUOUS');
        assert.match(err.message, /x64\/Foo\.AppImage/);
        assert.match(err.message, /arm\/Foo\.AppImage/);
        return true;
      },
    );
    await cleanOut();
  });

  void test('innerMatch that matches nothing: ZIP_NO_APPIMAGE listing the entries', async () => {
    const archive = await zipWithCli({ 'Foo.AppImage': x64, 'notes.txt': 'n' });
    await assert.rejects(
      extractAppImageFromZip(archive, out, PREFIX, 'Bar*'),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'ZIP_NO_APPIMAGE');
        assert.match(err.message, /Foo\.AppImage/);
        assert.match(err.message, /notes\.txt/);
        return true;
      },
    );
    assert.deepEqual(await outNames(), []);
  });

  void test('without innerMatch the single *.AppImage entry is taken', async () => {
    const archive = await zipWithCli({ LICENSE: 'MIT', 'bin/tool': x64, 'Tool-2.0.AppImage': x64 });
    const r = await extractAppImageFromZip(archive, out, PREFIX);
    assert.equal(r.entryName, 'Tool-2.0.AppImage');
    assert.deepEqual(await readFile(r.path), x64);
    await cleanOut();
  });

  void test('several *.AppImage entries without innerMatch are ambiguous', async () => {
    const archive = await zipWithCli({ 'A.AppImage': x64, 'B.AppImage': arm });
    await assert.rejects(extractAppImageFromZip(archive, out, PREFIX), { code: 'ZIP_AMBIGUOUS' });
  });

  void test('else the first entry with ELF magic', async () => {
    const archive = await zipWithCli({ 'a-readme.txt': 'hello', 'b/tool': x64, 'c/other': arm });
    const r = await extractAppImageFromZip(archive, out, PREFIX);
    assert.equal(r.entryName, 'b/tool');
    assert.deepEqual(await readFile(r.path), x64);
    await cleanOut();
  });

  void test('no AppImage at all: ZIP_NO_APPIMAGE listing the entries, nothing extracted', async () => {
    const archive = await zipWithCli({ 'doc/readme.txt': 'hi', 'data.bin': Buffer.alloc(10, 1) });
    await assert.rejects(extractAppImageFromZip(archive, out, PREFIX), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'ZIP_NO_APPIMAGE');
      assert.match(err.message, /doc\/readme\.txt/);
      assert.match(err.message, /data\.bin/);
      return true;
    });
    assert.deepEqual(await outNames(), []);
  });

  for (const name of ['../evil.AppImage', '/tmp/abs.AppImage', 'a/../../b.AppImage', 'dir\\evil.AppImage']) {
    void test(`an entry escaping its folder (${name}) refuses the whole archive`, async () => {
      const archive = await rawZip([
        { name: 'ok.AppImage', data: x64 },
        { name, data: x64 },
      ]);
      await assert.rejects(
        extractAppImageFromZip(archive, out, PREFIX, 'ok.AppImage'),
        (err: Error & { code?: string }) => {
          assert.equal(err.code, 'ZIP_UNSAFE_PATH');
          assert.ok(err.message.includes(name), err.message);
          return true;
        },
      );
      assert.deepEqual(await outNames(), []);
      assert.deepEqual(
        (await readdir(root)).filter((f) => f.includes('evil') || f.includes('abs')),
        [],
      );
    });
  }

  void test('a symlink entry named *.AppImage is never taken', async () => {
    const archive = await rawZip([
      { name: 'link.AppImage', data: Buffer.from('/usr/bin/env'), mode: 0o120777 },
      { name: 'real', data: x64 },
    ]);
    const r = await extractAppImageFromZip(archive, out, PREFIX);
    assert.equal(r.entryName, 'real');
    await cleanOut();
  });

  void test('an entry inflating past its declared size is stopped and leaves nothing', async () => {
    const archive = await zipWithCli({ 'bomb.AppImage': Buffer.alloc(2_000_000) });
    const bytes = await readFile(archive);
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    assert.ok(central > 0);
    bytes.writeUInt32LE(1000, central + 24); // declared uncompressed size
    await writeFile(archive, bytes);
    await assert.rejects(extractAppImageFromZip(archive, out, PREFIX), { code: 'ZIP_BOMB' });
    assert.deepEqual(await outNames(), []);
  });

  void test('a small ZIP expanding past max_asset_size is refused before a byte is written', async () => {
    // 8 MiB of zeros deflate to a few KiB: the shape of a ZIP that expands a thousandfold.
    const archive = await zipWithCli({
      'huge.AppImage': Buffer.concat([x64, Buffer.alloc(8 * 1024 * 1024)]),
    });
    assert.ok((await readFile(archive)).length < 100_000);
    await assert.rejects(extractAppImageFromZip(archive, out, PREFIX, undefined, 4 * 1024 * 1024), {
      code: 'ZIP_ENTRY_TOO_LARGE',
    });
    assert.deepEqual(await outNames(), []);
    const r = await extractAppImageFromZip(archive, out, PREFIX, undefined, 16 * 1024 * 1024);
    assert.equal(r.entryName, 'huge.AppImage');
    await cleanOut();
  });

  void test('a file that is not a ZIP: ZIP_INVALID', async () => {
    const notZip = join(root, 'junk.zip');
    await writeFile(notZip, 'PK but not really');
    await assert.rejects(extractAppImageFromZip(notZip, out, PREFIX), { code: 'ZIP_INVALID' });
  });
});
