import { open, type FileHandle } from 'node:fs/promises';
import { KeeperError } from '../core/errors.js';
import { parseElfHeader, type ElfInfo } from './elf.js';

/** One entry of an ELF section header table, with its name resolved through `.shstrtab`. */
export interface ElfSection {
  name: string;
  /** sh_type (1 = PROGBITS, 3 = STRTAB, 8 = NOBITS, ...). */
  type: number;
  /** Where the section's bytes are in the file and how many; NOBITS sections occupy no file bytes. */
  offset: number;
  size: number;
}

// Every bound below is far above what a real runtime has (the AppImage runtime has about 30 sections
// and a 300-byte name table) and low enough that a hostile header cannot make us read megabytes.
const MAX_TABLE_BYTES = 1 << 20;
const MAX_NAMES_BYTES = 64 << 10;
const MAX_NAME_LENGTH = 256;
const SHT_NOBITS = 8;
const SHN_UNDEF = 0;
const SHN_LORESERVE = 0xff00;
const HEADER_READ = 64;

function invalid(message: string): KeeperError {
  return new KeeperError('ELF_SECTIONS_INVALID', `ELF section headers: ${message}`);
}

async function readExactly(fh: FileHandle, position: number, length: number, what: string): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, position + done);
    if (bytesRead === 0) throw invalid(`${what} ends past the end of the file`);
    done += bytesRead;
  }
  return buf;
}

/** Where a file's section header table is, validated against the file size; undefined when it has none. */
export interface SectionTableLocation {
  elf: ElfInfo;
  offset: number;
  bytes: number;
  /** False when e_shstrndx is SHN_UNDEF: the table is real but no section has a name. */
  named: boolean;
}

/** Step 1 of reading sections: the table's place, from the first 64 bytes of the file. */
export function locateSectionTable(head: Buffer, fileSize: number): SectionTableLocation | undefined {
  const elf = parseElfHeader(head);
  const t = elf.sectionTable;
  // e_shnum 0 means "no sections" (or, with e_shoff set, more than 0xff00 kept in section 0: not an
  // AppImage runtime, and nothing we need).
  if (t.count === 0) return undefined;
  const minEntry = elf.elfClass === 64 ? 64 : 40;
  if (t.entrySize < minEntry) throw invalid(`entry size ${t.entrySize} is below ${minEntry}`);
  const bytes = t.entrySize * t.count;
  if (bytes > MAX_TABLE_BYTES) throw invalid(`table of ${bytes} bytes is too large`);
  // A table that claims entries but starts inside the ELF header overlaps it: a lie, not "no table".
  const headerSize = elf.elfClass === 64 ? 64 : 52;
  if (t.offset < headerSize) throw invalid(`the table at offset ${t.offset} overlaps the ELF header`);
  if (t.offset + bytes > fileSize) throw invalid('the table lies past the end of the file');
  if (t.namesIndex >= SHN_LORESERVE || t.namesIndex >= t.count) {
    throw invalid(`name table index ${t.namesIndex} is not a section`);
  }
  // SHN_UNDEF is the ELF specification's "no section name table": legal, and then no section can be
  // one we look for by name (a signature, update information).
  return { elf, offset: t.offset, bytes, named: t.namesIndex !== SHN_UNDEF };
}

/** Section headers whose names are not resolved yet, and where the name table is (none: SHN_UNDEF). */
export interface RawSections {
  entries: { nameOff: number; type: number; offset: number; size: number }[];
  names: { offset: number; size: number } | undefined;
}

/** Step 2: decodes the table's entries and checks the name table's place. */
export function parseSectionHeaders(loc: SectionTableLocation, table: Buffer, fileSize: number): RawSections {
  const { elf } = loc;
  const t = elf.sectionTable;
  const le = elf.littleEndian;
  const u32 = (off: number): number => (le ? table.readUInt32LE(off) : table.readUInt32BE(off));
  const word = (off: number): number => {
    if (elf.elfClass === 32) return u32(off);
    const v = le ? table.readBigUInt64LE(off) : table.readBigUInt64BE(off);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid(`value ${v} out of range`);
    return Number(v);
  };
  const entries = Array.from({ length: t.count }, (_, i) => {
    const at = i * t.entrySize;
    // sh_name, sh_type, then sh_offset/sh_size at class-specific places.
    return elf.elfClass === 64
      ? { nameOff: u32(at), type: u32(at + 4), offset: word(at + 24), size: word(at + 32) }
      : { nameOff: u32(at), type: u32(at + 4), offset: word(at + 16), size: word(at + 20) };
  });
  if (!loc.named) return { entries, names: undefined };
  const namesEntry = entries[t.namesIndex];
  if (!namesEntry || namesEntry.type === SHT_NOBITS) throw invalid('the name table has no bytes');
  if (namesEntry.size > MAX_NAMES_BYTES) throw invalid(`name table of ${namesEntry.size} bytes is too large`);
  if (namesEntry.offset + namesEntry.size > fileSize) {
    throw invalid('the name table lies past the end of the file');
  }
  return { entries, names: { offset: namesEntry.offset, size: namesEntry.size } };
}

/** Step 3: resolves the names through the name table's bytes; without a name table every name is ''. */
export function nameSections(raw: RawSections, names: Buffer | undefined): ElfSection[] {
  return raw.entries.map((r) => ({
    name: names ? nameAt(names, r.nameOff) : '',
    type: r.type,
    offset: r.offset,
    size: r.type === SHT_NOBITS ? 0 : r.size,
  }));
}

/** The places no section may claim: the ELF header, the section header table, the file's end. */
export interface SectionBounds {
  fileSize: number;
  headerBytes: number;
  /** [start, end) of the section header table. */
  table: [number, number];
}

/** Where a location's ELF header and section table lie, for checks of the sections it lists. */
export function boundsOf(loc: SectionTableLocation, fileSize: number): SectionBounds {
  const headerBytes = loc.elf.elfClass === 64 ? 64 : 52;
  return { fileSize, headerBytes, table: [loc.offset, loc.offset + loc.bytes] };
}

/** Lists the sections of an open ELF file with the bounds they must respect; no table, no sections. */
export async function readSectionLayout(
  fh: FileHandle,
): Promise<{ sections: ElfSection[]; bounds: SectionBounds | undefined }> {
  const { size: fileSize } = await fh.stat();
  const head = await readExactly(fh, 0, Math.min(HEADER_READ, fileSize), 'the ELF header');
  const loc = locateSectionTable(head, fileSize);
  if (!loc) return { sections: [], bounds: undefined };
  const raw = parseSectionHeaders(
    loc,
    await readExactly(fh, loc.offset, loc.bytes, 'the section header table'),
    fileSize,
  );
  const names = raw.names
    ? await readExactly(fh, raw.names.offset, raw.names.size, 'the name table')
    : undefined;
  return { sections: nameSections(raw, names), bounds: boundsOf(loc, fileSize) };
}

/** Lists the sections of an open ELF file; a file without a section table has none. */
export async function listSectionsOfHandle(fh: FileHandle): Promise<ElfSection[]> {
  return (await readSectionLayout(fh)).sections;
}

function nameAt(names: Buffer, offset: number): string {
  if (offset >= names.length) throw invalid(`section name offset ${offset} is outside the name table`);
  const end = names.indexOf(0, offset);
  if (end === -1) throw invalid('a section name is not terminated');
  if (end - offset > MAX_NAME_LENGTH) throw invalid('a section name is too long');
  // Real section names are printable ASCII; anything else is shown escaped, so a name can reach a
  // terminal or a JSON document as it is.
  return names
    .toString('latin1', offset, end)
    .replace(/[^\x20-\x7e]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Lists the sections of the ELF file at `path` (name, type, file offset and size). */
export async function listElfSections(path: string): Promise<ElfSection[]> {
  const fh = await open(path, 'r');
  try {
    return await listSectionsOfHandle(fh);
  } finally {
    await fh.close();
  }
}

/**
 * The bytes of the section called `name`, or undefined when the file has no such section. A section
 * larger than `maxBytes` or reaching past the end of the file is an error, never a partial read.
 */
export async function readElfSection(
  path: string,
  name: string,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const fh = await open(path, 'r');
  try {
    const section = (await listSectionsOfHandle(fh)).find((s) => s.name === name);
    if (!section) return undefined;
    return await readSectionOfHandle(fh, section, maxBytes);
  } finally {
    await fh.close();
  }
}

/** Reads one listed section of an open file, bounded by `maxBytes`. */
export async function readSectionOfHandle(
  fh: FileHandle,
  section: ElfSection,
  maxBytes: number,
): Promise<Buffer> {
  if (section.size > maxBytes) {
    throw invalid(`section ${section.name} has ${section.size} bytes, more than the ${maxBytes} allowed`);
  }
  return readExactly(fh, section.offset, section.size, `section ${section.name}`);
}
