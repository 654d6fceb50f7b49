// A legal ELF without section names (e_shstrndx SHN_UNDEF) or without a section table (e_shnum 0) is
// an unsigned AppImage without update information, whose payload is where the runtime finds it;
// section tables that lie about the signature sections stay errors. Built from real fixture images.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeAppImage } from '../../fixtures/make-appimage.js';
import { readElfInfo } from '../../src/appimage/elf.js';
import { listElfSections } from '../../src/appimage/elf-sections.js';
import { readEmbeddedSignature } from '../../src/appimage/embedded-signature.js';
import { openAppImage } from '../../src/appimage/open-appimage.js';
import { readUpdateInfoText } from '../../src/appimage/update-info.js';
import { ZeroedDigestTap } from '../../src/appimage/zeroed-digest.js';
import { KeeperError } from '../../src/core/errors.js';
import {
  sectionHeaderAt,
  sectionTableRange,
  withoutSectionNames,
  withoutSectionTable,
  withSection,
} from '../helpers/elf-patch.js';
import { tempDir } from './helpers.js';

void describe('AppImages without section names or section table', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let image: Buffer;
  before(async () => {
    ({ dir, cleanup } = await tempDir());
    const out = join(dir, 'real.AppImage');
    await makeAppImage({
      outFile: out,
      name: 'bare',
      version: '1',
      signatureSections: true,
      updateInfo: 'zsync|https://example.org/bare.zsync',
    });
    image = await readFile(out);
  });
  after(() => cleanup());

  async function file(name: string, data: Buffer): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, data);
    return path;
  }

  void test('e_shstrndx SHN_UNDEF: every section unnamed, so unsigned and without update information', async () => {
    const path = await file('unnamed', withoutSectionNames(image));
    const sections = await listElfSections(path);
    assert.equal(sections.length, 6);
    assert.ok(sections.every((s) => s.name === ''));
    assert.equal(await readEmbeddedSignature(path), undefined);
    assert.equal(await readUpdateInfoText(path, 2), '');
    const tap = new ZeroedDigestTap(image.length);
    tap.update(withoutSectionNames(image));
    assert.equal(tap.result(image.length), undefined);
    assert.equal(
      (await readElfInfo(path)).payloadOffset,
      (await readElfInfo(await file('orig', image))).payloadOffset,
    );
  });

  void test('e_shnum 0: no sections; the payload is at e_shoff, where the runtime looks, and opens', async () => {
    const path = await file('tableless', withoutSectionTable(image));
    assert.deepEqual(await listElfSections(path), []);
    assert.equal(await readEmbeddedSignature(path), undefined);
    assert.equal(await readUpdateInfoText(path, 2), '');
    const { elf, image: fs } = await openAppImage(path);
    try {
      assert.equal(elf.payloadOffset, sectionTableRange(image)[1]);
      assert.ok((await fs.readdir('/')).some((e) => e.name === 'bare.desktop'));
    } finally {
      await fs.close();
    }
  });

  void test('a table that claims entries but starts inside the ELF header is refused', async () => {
    const b = Buffer.from(image);
    b.writeBigUInt64LE(8n, 0x28);
    await assert.rejects(
      listElfSections(await file('header-table', b)),
      (e) =>
        e instanceof KeeperError &&
        e.code === 'ELF_SECTIONS_INVALID' &&
        /overlaps the ELF header/.test(e.message),
    );
  });

  void test('without names, a table past the end of the file is still refused', async () => {
    const b = withoutSectionNames(image);
    b.writeBigUInt64LE(BigInt(b.length - 10), 0x28);
    await assert.rejects(listElfSections(await file('unnamed-past-end', b)), /past the end/);
  });

  const sigAt = (b: Buffer): { offset: number; size: number } => {
    const at = sectionHeaderAt(b, '.sha256_sig');
    return { offset: Number(b.readBigUInt64LE(at + 24)), size: Number(b.readBigUInt64LE(at + 32)) };
  };
  const lies: [string, (b: Buffer) => Buffer, RegExp][] = [
    [
      '.sha256_sig starting past the end',
      (b) => withSection(b, '.sha256_sig', b.length + 4096, 0),
      /past the end/,
    ],
    [
      '.sha256_sig running past the end',
      (b) => withSection(b, '.sha256_sig', b.length - 16, 1024),
      /past the end/,
    ],
    ['.sha256_sig over the ELF header', (b) => withSection(b, '.sha256_sig', 16), /overlaps the ELF header/],
    [
      '.sig_key over the section header table',
      (b) => withSection(b, '.sig_key', sectionTableRange(b)[0] - 8, 64),
      /overlaps the section header table/,
    ],
    [
      '.sig_key over .sha256_sig',
      (b) => withSection(b, '.sig_key', sigAt(b).offset + 8, 64),
      /overlaps the other signature section/,
    ],
  ];
  for (const [title, lie, message] of lies) {
    void test(`a lying table is SIG_BAD even for an unsigned file: ${title}`, async () => {
      const path = await file(title.replace(/\W+/g, '-'), lie(image));
      await assert.rejects(
        readEmbeddedSignature(path),
        (e) => e instanceof KeeperError && e.code === 'SIG_BAD' && message.test(e.message),
      );
    });
  }
});
