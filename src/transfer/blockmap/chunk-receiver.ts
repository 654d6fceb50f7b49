import type { FileHandle } from 'node:fs/promises';
import type { ChunkSink } from '../ranges/fetch-runs.js';
import { WriteQueue } from '../ranges/write-queue.js';
import type { ContentRange } from '../ranges/content-range.js';
import type { ChunkHasher } from './chunk-hasher.js';
import { blockmapError } from './errors.js';
import type { BlockMap } from './format.js';

/**
 * Turns fetched byte ranges into verified block map chunks: cuts the stream at chunk boundaries,
 * checks each chunk's BLAKE2b against the new map before it is queued for writing. Bytes of chunks
 * already known, or of chunks a part covers only partly, are dropped.
 */
export class ChunkReceiver implements ChunkSink {
  private cursor = 0;
  /** Chunk being assembled, or -1 while skipping to the next chunk boundary. */
  private id = -1;
  private partial: Buffer | undefined;
  private partialLen = 0;
  private readonly writes: WriteQueue;
  /** End of the file's chunk area: the tail after it is never fetched as chunks. */
  private readonly chunkEnd: number;

  constructor(
    private readonly map: BlockMap,
    private readonly hasher: ChunkHasher,
    private readonly known: Uint8Array,
    out: FileHandle,
    private readonly url: string,
  ) {
    this.chunkEnd = map.fileSize - map.tailSize;
    this.writes = new WriteQueue(out);
  }

  get queuedBytes(): number {
    return this.writes.bytes;
  }

  beginPart(range: ContentRange): void {
    if (range.total !== undefined && range.total !== this.map.fileSize)
      throw blockmapError(
        'TARGET_CHANGED',
        `${this.url} is ${range.total} bytes but its block map describes ${this.map.fileSize} bytes`,
        { details: { url: this.url, expected: this.map.fileSize, actual: range.total } },
      );
    if (range.last >= this.map.fileSize)
      throw blockmapError('RANGE_INVALID', `${this.url} sent bytes past the end of the file`);
    this.cursor = range.first;
    this.partialLen = 0;
    this.id = this.chunkStartingAt(range.first);
  }

  data(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.id < 0) {
        // Skip to the next chunk boundary.
        const id = this.chunkAfter(this.cursor);
        const target = id < 0 ? Infinity : this.map.offsets[id]!;
        const n = Math.min(target - this.cursor, chunk.length - off);
        this.cursor += n;
        off += n;
        if (this.cursor === target) this.id = id;
        continue;
      }
      const size = this.map.sizes[this.id]!;
      if (this.partialLen === 0 && chunk.length - off >= size) {
        this.accept(this.id, chunk.subarray(off, off + size));
        off += size;
      } else {
        const n = Math.min(size - this.partialLen, chunk.length - off);
        this.partial ??= Buffer.allocUnsafe(size);
        chunk.copy(this.partial, this.partialLen, off, off + n);
        this.partialLen += n;
        off += n;
        if (this.partialLen < size) continue;
        const whole = this.partial;
        // The buffer may be queued for writing: the next chunk gets a fresh one.
        this.partial = undefined;
        this.partialLen = 0;
        this.accept(this.id, whole);
      }
      this.cursor = this.map.offsets[this.id]! + size;
      this.id = this.id + 1 < this.map.sizes.length ? this.id + 1 : -1;
    }
  }

  endPart(): void {
    // A chunk cut short by the end of the part is useless; it is asked for again later.
    this.partialLen = 0;
    this.partial = undefined;
    this.id = -1;
  }

  flush(): Promise<void> {
    return this.writes.flush();
  }

  private accept(id: number, data: Buffer): void {
    if (this.known[id] !== 0) return;
    if (this.hasher.checksum(data) !== this.map.checksums[id])
      throw blockmapError('CHUNK_CHECKSUM', `chunk ${id} from ${this.url} does not match the block map`, {
        details: { url: this.url, chunk: id },
      });
    this.known[id] = 1;
    this.writes.push(this.map.offsets[id]!, data);
  }

  /** The chunk starting exactly at `pos`, or -1. */
  private chunkStartingAt(pos: number): number {
    const id = this.chunkAfter(pos);
    return id >= 0 && this.map.offsets[id] === pos ? id : -1;
  }

  /** The first chunk starting at or after `pos` (within the chunk area), or -1. */
  private chunkAfter(pos: number): number {
    if (pos >= this.chunkEnd) return -1;
    const offsets = this.map.offsets;
    let lo = 0;
    let hi = offsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (offsets[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo < offsets.length ? lo : -1;
  }
}
