// The ELF section reader: names through .shstrtab, compared with readelf on real files, and hostile
// headers (bad sizes, tables past the end, unterminated names) refused with ELF_SECTIONS_INVALID.
import assert from 'node:assert/strict';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readelfSections } from '../../fixtures/sign-appimage.js';
import { buildRuntime } from '../../fixtures/runtime.js';
import { listElfSections, readElfSection } from '../../src/appimage/elf-sections.js';
import { KeeperError } from '../../src/core/errors.js';
import { tempDir } from './helpers.js';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/appimages');

void describe('ELF sections', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let runtime: Buffer;
  before(async () => {
    ({ dir, cleanup } = await tempDir());
    runtime = buildRuntime({
      message: 'x\n',
      arch: 'x86_64',
      updateInfo: 'zsync|http://x',
      signatureSections: true,
    });
  });
  after(() => cleanup());

  async function file(name: string, data: Buffer): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, data);
    return path;
  }

  void test('lists the fixture runtime sections as readelf does, and reads one by name', async () => {
    const path = await file('runtime', runtime);
    const ours = await listElfSections(path);
    const theirs = await readelfSections(path);
    assert.deepEqual(
      ours.filter((s) => s.name !== '').map((s) => [s.name, s.offset, s.size]),
      [...theirs].filter(([n]) => n !== '').map(([n, s]) => [n, s.offset, s.size]),
    );
    const upd = await readElfSection(path, '.upd_info', 4096);
    assert.equal(upd?.subarray(0, 14).toString(), 'zsync|http://x');
    assert.equal(await readElfSection(path, '.nope', 4096), undefined);
    await assert.rejects(readElfSection(path, '.sig_key', 100), /more than the 100 allowed/);
  });

  void test('real corpus files: every section as readelf lists it', async (t) => {
    const names = ['appimagetool-x86_64.AppImage', 'Hello_World-x86_64.zstd.AppImage', 'elffile'];
    try {
      await access(CORPUS);
    } catch {
      t.skip(`corpus not found at ${CORPUS}`);
      return;
    }
    for (const n of names) {
      const path = join(CORPUS, n);
      const ours = (await listElfSections(path)).filter((s) => s.name !== '');
      const theirs = [...(await readelfSections(path))].filter(([name]) => name !== '');
      assert.deepEqual(
        ours.filter((s) => s.type !== 8).map((s) => [s.name, s.offset, s.size]),
        theirs
          .filter(([name]) => ours.find((s) => s.name === name)?.type !== 8)
          .map(([name, s]) => [name, s.offset, s.size]),
        n,
      );
    }
  });

  const SHOFF = 0x28;
  const SHENTSIZE = 0x3a;
  const SHSTRNDX = 0x3e;
  const hostile: [string, (b: Buffer) => void, RegExp][] = [
    ['entry size below 64', (b) => b.writeUInt16LE(16, SHENTSIZE), /entry size 16/],
    ['table past the end', (b) => b.writeBigUInt64LE(BigInt(b.length - 10), SHOFF), /past the end/],
    ['name index out of range', (b) => b.writeUInt16LE(99, SHSTRNDX), /name table index 99/],
    [
      'name table beyond the file',
      (b) => {
        const shoff = Number(b.readBigUInt64LE(SHOFF));
        const strEntry = shoff + b.readUInt16LE(SHSTRNDX) * 64;
        b.writeBigUInt64LE(1n << 40n, strEntry + 24);
      },
      /past the end/,
    ],
    [
      'name table too large',
      (b) => {
        const shoff = Number(b.readBigUInt64LE(SHOFF));
        b.writeBigUInt64LE(1n << 30n, shoff + b.readUInt16LE(SHSTRNDX) * 64 + 32);
      },
      /too large/,
    ],
    [
      'a name offset outside the name table',
      (b) => b.writeUInt32LE(0xffffff, Number(b.readBigUInt64LE(SHOFF)) + 64),
      /outside the name table/,
    ],
    [
      'an offset beyond 2^53',
      (b) => b.writeBigUInt64LE(1n << 60n, Number(b.readBigUInt64LE(SHOFF)) + 64 + 24),
      /out of range/,
    ],
  ];
  for (const [title, mutate, message] of hostile) {
    void test(`hostile header: ${title}`, async () => {
      const b = Buffer.from(runtime);
      mutate(b);
      const path = await file(title.replace(/\W+/g, '-'), b);
      await assert.rejects(
        listElfSections(path),
        (e) => e instanceof KeeperError && e.code === 'ELF_SECTIONS_INVALID' && message.test(e.message),
      );
    });
  }

  void test('a name with control characters is listed escaped', async () => {
    const b = Buffer.from(runtime);
    const shoff = Number(b.readBigUInt64LE(SHOFF));
    const strEntry = shoff + b.readUInt16LE(SHSTRNDX) * 64;
    const names = Number(b.readBigUInt64LE(strEntry + 24));
    const textName = b.readUInt32LE(shoff + 64);
    b.write('\x1b[2J', names + textName, 'latin1');
    const path = await file('escaped-name', b);
    assert.equal((await listElfSections(path))[1]?.name, '\\x1b[2Jt'); // over ".tex" of ".text"
  });

  void test('a section reaching past the end of the file cannot be read', async () => {
    const b = Buffer.from(runtime);
    const shoff = Number(b.readBigUInt64LE(SHOFF));
    b.writeBigUInt64LE(BigInt(b.length - 4), shoff + 2 * 64 + 24); // .upd_info starts 4 bytes before EOF
    const path = await file('short-section', b);
    await assert.rejects(readElfSection(path, '.upd_info', 4096), /past the end of the file/);
  });
});
