import { corrupt } from './errors.js';
import type { MetadataReader, TableBounds } from './metadata.js';
import type { ImageSource } from './source.js';
import type { Superblock } from './superblock.js';

/** Where a fragment block lives and whether it is stored uncompressed. */
export interface FragmentEntry {
  start: number;
  size: number;
  uncompressed: boolean;
}

const DATA_UNCOMPRESSED_BIT = 1 << 24;

/**
 * A lookup table stored as an index of u64 pointers to metadata blocks holding fixed-size entries
 * (the fragment and id tables). The index is read once, on first use; entries are read on demand.
 */
class IndexedTable {
  private index: Promise<number[]> | undefined;

  constructor(
    private readonly name: string,
    private readonly src: ImageSource,
    private readonly meta: MetadataReader,
    private readonly bounds: TableBounds,
    private readonly indexStart: number,
    private readonly count: number,
    private readonly entrySize: number,
  ) {}

  private get perBlock(): number {
    return 8192 / this.entrySize;
  }

  private loadIndex(): Promise<number[]> {
    this.index ??= (async () => {
      const n = Math.ceil(this.count / this.perBlock);
      const raw = await this.src.read(this.indexStart, n * 8);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const v = raw.readBigUInt64LE(i * 8);
        if (v >= BigInt(this.bounds.end)) throw corrupt(`${this.name} table pointer beyond the image`);
        out.push(Number(v));
      }
      return out;
    })();
    return this.index;
  }

  async entry(i: number): Promise<Buffer> {
    if (!Number.isInteger(i) || i < 0 || i >= this.count)
      throw corrupt(`${this.name} index ${i} out of range`);
    const index = await this.loadIndex();
    const blockPos = index[Math.floor(i / this.perBlock)];
    if (blockPos === undefined) throw corrupt(`${this.name} index incomplete`);
    const cur = { pos: blockPos, offset: (i % this.perBlock) * this.entrySize };
    return this.meta.read(cur, this.entrySize, this.bounds);
  }
}

/** Fragment table lookups (16-byte entries: start, size with the uncompressed bit, unused). */
export class FragmentTable {
  private readonly table: IndexedTable | undefined;

  constructor(
    src: ImageSource,
    meta: MetadataReader,
    private readonly sb: Superblock,
  ) {
    const bounds = { name: 'fragment', start: 0, end: sb.bytesUsed };
    this.table =
      sb.fragmentTableStart === undefined || sb.fragmentCount === 0
        ? undefined
        : new IndexedTable('fragment', src, meta, bounds, sb.fragmentTableStart, sb.fragmentCount, 16);
  }

  /** The location of fragment block `i`. */
  async get(i: number): Promise<FragmentEntry> {
    if (!this.table) throw corrupt('file refers to a fragment but the image has none');
    const e = await this.table.entry(i);
    const start = e.readBigUInt64LE(0);
    const word = e.readUInt32LE(8);
    const size = word & (DATA_UNCOMPRESSED_BIT - 1);
    if (
      word > (DATA_UNCOMPRESSED_BIT | (DATA_UNCOMPRESSED_BIT - 1)) ||
      size === 0 ||
      size > this.sb.blockSize
    ) {
      throw corrupt(`fragment ${i} has invalid size ${word}`);
    }
    if (start + BigInt(size) > BigInt(this.sb.bytesUsed)) throw corrupt(`fragment ${i} beyond the image`);
    return { start: Number(start), size, uncompressed: (word & DATA_UNCOMPRESSED_BIT) !== 0 };
  }
}

/** uid/gid lookups (4-byte entries). */
export class IdTable {
  private readonly table: IndexedTable;

  constructor(src: ImageSource, meta: MetadataReader, sb: Superblock) {
    const bounds = { name: 'id', start: 0, end: sb.bytesUsed };
    this.table = new IndexedTable('id', src, meta, bounds, sb.idTableStart, sb.idCount, 4);
  }

  /** The numeric uid or gid stored at index `i`. */
  async get(i: number): Promise<number> {
    return (await this.table.entry(i)).readUInt32LE(0);
  }
}
