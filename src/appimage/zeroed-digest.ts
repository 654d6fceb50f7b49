import { createHash, type Hash } from 'node:crypto';
import type { ByteTap } from '../transfer/download/index.js';
import { KeeperError } from '../core/errors.js';
import {
  boundsOf,
  locateSectionTable,
  nameSections,
  parseSectionHeaders,
  type ElfSection,
  type SectionBounds,
} from './elf-sections.js';

/** The signed digest of an AppImage and the ranges that were zeroed for it. */
export interface ZeroedDigest {
  /** Hex SHA-256 of the file with `.sha256_sig` and `.sig_key` read as zeros. */
  digest: string;
  ranges: [number, number][];
}

export const SIGNATURE_SECTION = '.sha256_sig';
export const KEY_SECTION = '.sig_key';

/**
 * The file ranges [start, end) of the signature sections that exist. A section table that lies about
 * them is ELF_SECTIONS_INVALID: one named twice, one that starts or ends outside the file, or one over
 * the ELF header, the section table or the other signature section (zeroing it would leave bytes
 * that decide how the file is read out of the signed digest).
 */
export function signatureRanges(sections: readonly ElfSection[], bounds: SectionBounds): [number, number][] {
  const found = sections.filter((s) => s.name === SIGNATURE_SECTION || s.name === KEY_SECTION);
  const lie = (s: ElfSection, what: string): KeeperError =>
    new KeeperError('ELF_SECTIONS_INVALID', `ELF section headers: section ${s.name} ${what}`);
  const ranges: [number, number][] = [];
  for (const s of found) {
    const [start, end] = [s.offset, s.offset + s.size];
    if (found.filter((o) => o.name === s.name).length > 1) throw lie(s, 'is listed more than once');
    if (start > bounds.fileSize || end > bounds.fileSize) {
      throw lie(s, `(bytes ${start}..${end}) runs past the end of the file (${bounds.fileSize} bytes)`);
    }
    if (s.size === 0) continue;
    if (start < bounds.headerBytes) throw lie(s, 'overlaps the ELF header');
    if (start < bounds.table[1] && bounds.table[0] < end) throw lie(s, 'overlaps the section header table');
    if (ranges.some(([a, b]) => start < b && a < end)) throw lie(s, 'overlaps the other signature section');
    ranges.push([start, end]);
  }
  return ranges;
}

/** `chunk` (at file offset `pos`) with the parts inside `ranges` zeroed; a copy only when needed. */
export function zeroRangesOf(chunk: Buffer, pos: number, ranges: readonly [number, number][]): Buffer {
  let out = chunk;
  for (const [start, end] of ranges) {
    const from = Math.max(start, pos);
    const to = Math.min(end, pos + chunk.length);
    if (from >= to) continue;
    if (out === chunk) out = Buffer.from(chunk);
    out.fill(0, from - pos, to - pos);
  }
  return out;
}

// AppImage runtimes keep their section table within the first megabyte; a file whose table is further
// away is not worth buffering for, and falls back to a pass over the file.
const MAX_PREFIX = 4 << 20;
const HEADER = 64;

/**
 * Computes the signed digest of an AppImage in the same pass as the download's SHA-256: it buffers
 * the first bytes until the ELF section table and the signature sections are known, then hashes
 * with those sections zeroed. It stops working (result undefined) for unsigned files, which need no
 * digest, and for files whose layout it cannot see early enough; the caller then reads the file.
 */
export class ZeroedDigestTap implements ByteTap {
  private prefix: Buffer[] = [];
  private prefixBytes = 0;
  private hash: Hash | undefined;
  private ranges: [number, number][] = [];
  private position = 0;
  private done = false;

  constructor(private readonly fileSize: number = Number.MAX_SAFE_INTEGER) {}

  update(chunk: Buffer): void {
    if (this.done) return;
    if (this.hash) {
      this.hash.update(zeroRangesOf(chunk, this.position, this.ranges));
      this.position += chunk.length;
      return;
    }
    this.prefix.push(Buffer.from(chunk));
    this.prefixBytes += chunk.length;
    this.tryStart();
  }

  reset(): void {
    this.prefix = [];
    this.prefixBytes = 0;
    this.hash = undefined;
    this.ranges = [];
    this.position = 0;
    this.done = false;
  }

  /** The digest of the bytes seen, or undefined when the tap gave up (or saw other than `size` bytes). */
  result(size?: number): ZeroedDigest | undefined {
    if (this.done || !this.hash || (size !== undefined && this.position !== size)) return undefined;
    this.done = true;
    return { digest: this.hash.digest('hex'), ranges: this.ranges };
  }

  private stop(): void {
    this.done = true;
    this.prefix = [];
  }

  private tryStart(): void {
    if (this.prefixBytes < HEADER) return;
    const buf = this.prefix.length === 1 ? (this.prefix[0] as Buffer) : Buffer.concat(this.prefix);
    this.prefix = [buf];
    const slice = (offset: number, length: number): Buffer | undefined =>
      offset + length <= buf.length ? buf.subarray(offset, offset + length) : undefined;
    let sections: ElfSection[];
    let bounds: SectionBounds;
    try {
      const loc = locateSectionTable(buf.subarray(0, HEADER), this.fileSize);
      if (!loc) return this.stop();
      bounds = boundsOf(loc, this.fileSize);
      const table = slice(loc.offset, loc.bytes);
      if (!table) return this.waitOrStop(loc.offset + loc.bytes);
      const raw = parseSectionHeaders(loc, table, this.fileSize);
      if (!raw.names) return this.stop(); // no name table: no signature section
      const names = slice(raw.names.offset, raw.names.size);
      if (!names) return this.waitOrStop(raw.names.offset + raw.names.size);
      sections = nameSections(raw, names);
    } catch {
      return this.stop(); // the file check after the download reports what is wrong
    }
    const sig = sections.find((s) => s.name === SIGNATURE_SECTION);
    if (!sig) return this.stop();
    const sigBytes = slice(sig.offset, sig.size);
    if (!sigBytes) return this.waitOrStop(sig.offset + sig.size);
    if (sigBytes.every((b) => b === 0)) return this.stop(); // unsigned: nothing to verify
    try {
      this.ranges = signatureRanges(sections, bounds);
    } catch {
      return this.stop();
    }
    this.hash = createHash('sha256');
    this.hash.update(zeroRangesOf(buf, 0, this.ranges));
    this.position = buf.length;
    this.prefix = [];
  }

  private waitOrStop(needed: number): void {
    if (needed > MAX_PREFIX) this.stop();
  }
}
