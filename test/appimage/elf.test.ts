import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeAppImage } from '../../fixtures/make-appimage.js';
import { hostArch, parseElfHeader, readElfInfo } from '../../src/appimage/elf.js';
import { tempDir } from './helpers.js';

function elf32BigEndian(machine: number): Buffer {
  const b = Buffer.alloc(52);
  b.set([0x7f, 0x45, 0x4c, 0x46, 1, 2, 1], 0);
  b.writeUInt16BE(machine, 18);
  b.writeUInt32BE(1000, 0x20); // e_shoff
  b.writeUInt16BE(40, 0x2e); // e_shentsize
  b.writeUInt16BE(5, 0x30); // e_shnum
  return b;
}

void describe('ELF header', () => {
  void test('reads class, byte order, machine and the payload offset of a 32-bit big-endian header', () => {
    const info = parseElfHeader(elf32BigEndian(40));
    assert.deepEqual(info, {
      elfClass: 32,
      littleEndian: false,
      machine: 40,
      arch: 'armhf',
      appImageType: 0,
      payloadOffset: 1200,
      sectionTable: { offset: 1000, entrySize: 40, count: 5, namesIndex: 0 },
    });
    assert.equal(parseElfHeader(elf32BigEndian(99)).arch, 'unknown(99)');
  });

  void test('rejects non-ELF data and truncated headers with distinct codes', () => {
    assert.throws(() => parseElfHeader(Buffer.from('<!DOCTYPE html><html>')), { code: 'NOT_ELF' });
    assert.throws(() => parseElfHeader(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1])), { code: 'ELF_INVALID' });
    const header = elf32BigEndian(3);
    assert.throws(() => parseElfHeader(header.subarray(0, 40)), { code: 'ELF_INVALID' });
    header[4] = 7;
    assert.throws(() => parseElfHeader(header), { code: 'ELF_INVALID' });
  });

  void test('maps Node architectures to AppImage names', () => {
    assert.equal(hostArch('x64'), 'x86_64');
    assert.equal(hostArch('arm64'), 'aarch64');
    assert.equal(hostArch('ia32'), 'i686');
    assert.equal(hostArch('arm'), 'armhf');
    assert.equal(hostArch('riscv64'), 'riscv64');
  });

  void test('fixture AppImages carry the type-2 magic, the right machine, and a SquashFS at the payload offset', async () => {
    const tmp = await tempDir();
    try {
      for (const arch of ['x86_64', 'aarch64'] as const) {
        const file = join(tmp.dir, `${arch}.AppImage`);
        await makeAppImage({ outFile: file, name: 'demo', version: '1.0', arch });
        const info = await readElfInfo(file);
        assert.equal(info.appImageType, 2);
        assert.equal(info.arch, arch);
        assert.equal(info.machine, arch === 'x86_64' ? 62 : 183);
        const bytes = await readFile(file);
        assert.equal(bytes.toString('latin1', info.payloadOffset, info.payloadOffset + 4), 'hsqs');
      }
    } finally {
      await tmp.cleanup();
    }
  });

  void test(
    'the fixture runtime is a working executable that prints name and version',
    { skip: process.arch !== 'x64' },
    async () => {
      const tmp = await tempDir();
      try {
        const file = join(tmp.dir, 'hello.AppImage');
        await makeAppImage({ outFile: file, name: 'hello', version: '4.5.6', compression: 'zstd' });
        const res = spawnSync(file, [], { encoding: 'utf8', timeout: 10_000 });
        assert.equal(res.status, 0);
        assert.equal(res.stdout, 'hello 4.5.6\n');
        const demo = spawnSync(join('fixtures', 'demo', 'tool-2.0.AppImage'), [], {
          encoding: 'utf8',
          timeout: 10_000,
        });
        assert.equal(demo.stdout, 'tool 2.0\n');
      } finally {
        await tmp.cleanup();
      }
    },
  );
});
