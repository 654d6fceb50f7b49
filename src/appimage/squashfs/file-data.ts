import type { Decompressor } from './decompress.js';
import { corrupt } from './errors.js';
import type { FileInode } from './inode.js';
import { Lru } from './lru.js';
import type { MetadataReader, TableBounds } from './metadata.js';
import type { ImageSource } from './source.js';
import type { Superblock } from './superblock.js';
import type { FragmentTable } from './tables.js';

const DATA_UNCOMPRESSED_BIT = 1 << 24;

/**
 * Reads regular file contents: full data blocks laid out back to back from `blocksStart` (a size word
 * per block: bit 24 = stored uncompressed, 0 = sparse block of zeros), then the tail end from a
 * shared fragment block.
 */
export class FileDataReader {
  private readonly fragmentCache = new Lru<number, Promise<Buffer>>(8);

  constructor(
    private readonly src: ImageSource,
    private readonly meta: MetadataReader,
    private readonly inodeBounds: TableBounds,
    private readonly decompress: Decompressor,
    private readonly sb: Superblock,
    private readonly fragments: FragmentTable,
  ) {}

  /** The whole file as one buffer (callers cap `inode.size` first). */
  async read(inode: FileInode): Promise<Buffer> {
    const bs = this.sb.blockSize;
    const out = Buffer.alloc(inode.size);
    const list = await this.meta.read({ ...inode.blockList }, inode.blockCount * 4, this.inodeBounds);
    let pos = inode.blocksStart;
    for (let i = 0; i < inode.blockCount; i++) {
      const word = list.readUInt32LE(i * 4);
      const stored = word & (DATA_UNCOMPRESSED_BIT - 1);
      const expected = Math.min(bs, inode.size - i * bs);
      if (word > (DATA_UNCOMPRESSED_BIT | (DATA_UNCOMPRESSED_BIT - 1)) || stored > bs) {
        throw corrupt(`data block ${i} has invalid size word ${word}`);
      }
      if (stored === 0) continue; // sparse: already zero
      const raw = await this.src.read(pos, stored);
      pos += stored;
      const data = word & DATA_UNCOMPRESSED_BIT ? raw : await this.decompress(raw, bs);
      if (data.length !== expected)
        throw corrupt(`data block ${i} holds ${data.length} bytes, expected ${expected}`);
      data.copy(out, i * bs);
    }
    if (inode.fragment !== undefined) {
      const tailStart = inode.blockCount * bs;
      const tail = inode.size - tailStart;
      const block = await this.fragmentBlock(inode.fragment);
      if (inode.fragmentOffset + tail > block.length) throw corrupt('file tail runs past its fragment block');
      block.copy(out, tailStart, inode.fragmentOffset, inode.fragmentOffset + tail);
    }
    return out;
  }

  private fragmentBlock(index: number): Promise<Buffer> {
    const hit = this.fragmentCache.get(index);
    if (hit) return hit;
    const loading = (async () => {
      const entry = await this.fragments.get(index);
      const raw = await this.src.read(entry.start, entry.size);
      return entry.uncompressed ? raw : this.decompress(raw, this.sb.blockSize);
    })();
    this.fragmentCache.set(index, loading);
    loading.catch(() => this.fragmentCache.delete(index));
    return loading;
  }
}
