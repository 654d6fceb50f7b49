import { open } from 'node:fs/promises';
import { KeeperError } from '../core/errors.js';

/** What the ELF header of an AppImage tells us: class, byte order, machine, AppImage type, payload start. */
export interface ElfInfo {
  elfClass: 32 | 64;
  littleEndian: boolean;
  machine: number;
  /** 'x86_64' | 'aarch64' | 'i686' | 'armhf' | 'riscv64' | `unknown(<n>)` */
  arch: string;
  /** Bytes 8..10 hold 'AI' + type in AppImages; 0 when that magic is absent. */
  appImageType: 0 | 1 | 2;
  /** End of the section header table (e_shoff + e_shentsize * e_shnum): where a type-2 SquashFS starts. */
  payloadOffset: number;
  /** Where the section header table is (e_shoff, e_shentsize, e_shnum, e_shstrndx), unvalidated. */
  sectionTable: { offset: number; entrySize: number; count: number; namesIndex: number };
}

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];
const ELF32_HEADER_SIZE = 52;
const ELF64_HEADER_SIZE = 64;

// e_machine values from the System V ABI registry, mapped to the names AppImage assets use.
const MACHINES: Record<number, string> = {
  3: 'i686',
  40: 'armhf',
  62: 'x86_64',
  183: 'aarch64',
  243: 'riscv64',
};

/** Name of an ELF e_machine value in AppImage terms (`unknown(<n>)` when not one we ship for). */
export function machineName(machine: number): string {
  return MACHINES[machine] ?? `unknown(${machine})`;
}

/** Parses the ELF identification and header fields an AppImage check needs. */
export function parseElfHeader(buf: Buffer): ElfInfo {
  const magicLen = Math.min(buf.length, ELF_MAGIC.length);
  for (let i = 0; i < magicLen; i++) {
    if (buf[i] !== ELF_MAGIC[i]) throw new KeeperError('NOT_ELF', 'not an ELF file (bad magic bytes)');
  }
  if (buf.length < 16) throw new KeeperError('ELF_INVALID', `ELF header truncated (${buf.length} bytes)`);
  const cls = buf[4];
  const data = buf[5];
  if (cls !== 1 && cls !== 2) throw new KeeperError('ELF_INVALID', `invalid ELF class ${cls}`);
  if (data !== 1 && data !== 2) throw new KeeperError('ELF_INVALID', `invalid ELF data encoding ${data}`);
  const elfClass = cls === 1 ? 32 : 64;
  const littleEndian = data === 1;
  const need = elfClass === 32 ? ELF32_HEADER_SIZE : ELF64_HEADER_SIZE;
  if (buf.length < need) {
    throw new KeeperError('ELF_INVALID', `ELF${elfClass} header truncated (${buf.length} of ${need} bytes)`);
  }
  const u16 = (off: number): number => (littleEndian ? buf.readUInt16LE(off) : buf.readUInt16BE(off));
  const u32 = (off: number): number => (littleEndian ? buf.readUInt32LE(off) : buf.readUInt32BE(off));
  const u64 = (off: number): bigint => (littleEndian ? buf.readBigUInt64LE(off) : buf.readBigUInt64BE(off));

  const machine = u16(18);
  let shoff: bigint;
  let shentsize: number;
  let shnum: number;
  let shstrndx: number;
  if (elfClass === 64) {
    shoff = u64(0x28);
    shentsize = u16(0x3a);
    shnum = u16(0x3c);
    shstrndx = u16(0x3e);
  } else {
    shoff = BigInt(u32(0x20));
    shentsize = u16(0x2e);
    shnum = u16(0x30);
    shstrndx = u16(0x32);
  }
  const end = shoff + BigInt(shentsize) * BigInt(shnum);
  if (end > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new KeeperError('ELF_INVALID', `ELF section header table offset out of range (${end})`);
  }

  let appImageType: 0 | 1 | 2 = 0;
  if (buf[8] === 0x41 && buf[9] === 0x49 && (buf[10] === 1 || buf[10] === 2)) appImageType = buf[10];

  return {
    elfClass,
    littleEndian,
    machine,
    arch: machineName(machine),
    appImageType,
    payloadOffset: Number(end),
    sectionTable: { offset: Number(shoff), entrySize: shentsize, count: shnum, namesIndex: shstrndx },
  };
}

/** Reads and parses the ELF header of a file on disk (only its first 64 bytes are read). */
export async function readElfInfo(path: string): Promise<ElfInfo> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(ELF64_HEADER_SIZE);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return parseElfHeader(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

const HOST_ARCHES: Record<string, string> = {
  x64: 'x86_64',
  arm64: 'aarch64',
  ia32: 'i686',
  arm: 'armhf',
  riscv64: 'riscv64',
};

/** Maps Node's `process.arch` to the architecture name used in ElfInfo.arch. */
export function hostArch(nodeArch: string): string {
  return HOST_ARCHES[nodeArch] ?? nodeArch;
}
