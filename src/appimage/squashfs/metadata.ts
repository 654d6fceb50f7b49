import type { Decompressor } from './decompress.js';
import { corrupt } from './errors.js';
import { Lru } from './lru.js';
import { METADATA_BLOCK_SIZE, type MetaRef } from './superblock.js';
import type { ImageSource } from './source.js';

/** A region of the image a metadata table must stay inside. */
export interface TableBounds {
  name: string;
  start: number;
  end: number;
}

/** A read position inside a metadata table: absolute block position plus offset in its data. */
export interface MetaCursor {
  pos: number;
  offset: number;
}

interface MetaBlock {
  data: Buffer;
  next: number;
}

const UNCOMPRESSED_BIT = 0x8000;

/**
 * Reads metadata blocks (inode, directory, fragment and id tables): a 2-byte header (bit 15 =
 * stored uncompressed, low 15 bits = stored size) then at most 8 KiB of data. Blocks are cached, and
 * reads may span consecutive blocks the way inodes and directory listings do.
 */
export class MetadataReader {
  private readonly cache = new Lru<number, Promise<MetaBlock>>(128);

  constructor(
    private readonly src: ImageSource,
    private readonly decompress: Decompressor,
  ) {}

  /** Loads (or returns the cached) metadata block starting at absolute image position `pos`. */
  block(pos: number, bounds: TableBounds): Promise<MetaBlock> {
    if (pos < bounds.start || pos + 2 > bounds.end) {
      return Promise.reject(corrupt(`${bounds.name} metadata block at ${pos} outside its table`));
    }
    const hit = this.cache.get(pos);
    if (hit) return hit;
    const loading = this.load(pos, bounds);
    this.cache.set(pos, loading);
    loading.catch(() => this.cache.delete(pos));
    return loading;
  }

  private async load(pos: number, bounds: TableBounds): Promise<MetaBlock> {
    const header = (await this.src.read(pos, 2)).readUInt16LE(0);
    const stored = header & ~UNCOMPRESSED_BIT;
    if (stored === 0 || stored > METADATA_BLOCK_SIZE) {
      throw corrupt(`${bounds.name} metadata block at ${pos} has invalid size ${stored}`);
    }
    if (pos + 2 + stored > bounds.end)
      throw corrupt(`${bounds.name} metadata block at ${pos} overruns its table`);
    const raw = await this.src.read(pos + 2, stored);
    const data = header & UNCOMPRESSED_BIT ? raw : await this.decompress(raw, METADATA_BLOCK_SIZE);
    if (data.length === 0) throw corrupt(`${bounds.name} metadata block at ${pos} is empty`);
    return { data, next: pos + 2 + stored };
  }

  /** Cursor for a table-relative reference. */
  cursor(ref: MetaRef, bounds: TableBounds): MetaCursor {
    return { pos: bounds.start + ref.block, offset: ref.offset };
  }

  /** Reads `length` bytes from the cursor on, following into the next blocks; advances the cursor. */
  async read(cur: MetaCursor, length: number, bounds: TableBounds): Promise<Buffer> {
    const parts: Buffer[] = [];
    let need = length;
    while (need > 0) {
      const blk = await this.block(cur.pos, bounds);
      if (cur.offset > blk.data.length) throw corrupt(`${bounds.name} offset ${cur.offset} past its block`);
      if (cur.offset === blk.data.length) {
        cur.pos = blk.next;
        cur.offset = 0;
        continue;
      }
      const take = Math.min(need, blk.data.length - cur.offset);
      parts.push(blk.data.subarray(cur.offset, cur.offset + take));
      cur.offset += take;
      need -= take;
    }
    return parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts, length);
  }
}
