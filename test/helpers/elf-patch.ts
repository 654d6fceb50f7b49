/**
 * Header patches of real fixture AppImages (64-bit little-endian, as the fixture runtime is): the
 * legal section-less layouts a stripped runtime has, and section tables that lie.
 */
const SHOFF = 0x28;
const SHENTSIZE = 0x3a;
const SHNUM = 0x3c;
const SHSTRNDX = 0x3e;

function table(b: Buffer): { shoff: number; entsize: number; count: number; strndx: number } {
  return {
    shoff: Number(b.readBigUInt64LE(SHOFF)),
    entsize: b.readUInt16LE(SHENTSIZE),
    count: b.readUInt16LE(SHNUM),
    strndx: b.readUInt16LE(SHSTRNDX),
  };
}

/** A copy whose e_shstrndx is SHN_UNDEF: the section table stays, no section has a name. */
export function withoutSectionNames(image: Buffer): Buffer {
  const b = Buffer.from(image);
  b.writeUInt16LE(0, SHSTRNDX);
  return b;
}

/**
 * A copy without a section table (e_shnum 0, e_shstrndx SHN_UNDEF). e_shoff moves to where the
 * table ended, so the runtime's payload offset (e_shoff + e_shentsize * e_shnum) is still the SquashFS.
 */
export function withoutSectionTable(image: Buffer): Buffer {
  const b = Buffer.from(image);
  const t = table(b);
  b.writeBigUInt64LE(BigInt(t.shoff + t.entsize * t.count), SHOFF);
  b.writeUInt16LE(0, SHNUM);
  b.writeUInt16LE(0, SHSTRNDX);
  return b;
}

/** File offset of the section header of the section called `name`. */
export function sectionHeaderAt(b: Buffer, name: string): number {
  const t = table(b);
  const names = Number(b.readBigUInt64LE(t.shoff + t.strndx * t.entsize + 24));
  for (let i = 0; i < t.count; i++) {
    const at = t.shoff + i * t.entsize;
    const start = names + b.readUInt32LE(at);
    if (b.toString('latin1', start, b.indexOf(0, start)) === name) return at;
  }
  throw new Error(`no section ${name}`);
}

/** A copy whose section `name` claims sh_offset `offset` and sh_size `size` (undefined: unchanged). */
export function withSection(image: Buffer, name: string, offset?: number, size?: number): Buffer {
  const b = Buffer.from(image);
  const at = sectionHeaderAt(b, name);
  if (offset !== undefined) b.writeBigUInt64LE(BigInt(offset), at + 24);
  if (size !== undefined) b.writeBigUInt64LE(BigInt(size), at + 32);
  return b;
}

/** The section header table's [start, end) in `image`. */
export function sectionTableRange(image: Buffer): [number, number] {
  const t = table(image);
  return [t.shoff, t.shoff + t.entsize * t.count];
}
