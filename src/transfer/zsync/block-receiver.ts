import type { FileHandle } from 'node:fs/promises';
import { WriteQueue } from '../ranges/write-queue.js';
import { BlockHasher } from './block-hasher.js';
import type { BlockMatcher } from './block-matcher.js';
import type { ContentRange } from '../ranges/content-range.js';
import type { ZsyncControl } from './control-file.js';
import { zsyncError } from './errors.js';
import type { PartSink } from './multipart-byteranges.js';

/**
 * Turns fetched byte ranges into verified blocks: cuts the stream at block boundaries, checks each
 * block's MD4 against the control file before it is written, and queues contiguous blocks into
 * single vectored writes. Bytes of blocks that are already known, or of blocks a part covers only
 * partly, are dropped.
 */
export class BlockReceiver implements PartSink {
  /** Target bytes verified and queued so far. */
  bytesReceived = 0;
  private readonly bs: number;
  private readonly length: number;
  private cursor = 0;
  /** Bytes to drop before the next block boundary (a part that starts mid-block). */
  private skip = 0;
  private partial: Buffer | undefined;
  private partialLen = 0;
  private readonly writes: WriteQueue;

  constructor(
    private readonly control: ZsyncControl,
    private readonly hasher: BlockHasher,
    private readonly matcher: BlockMatcher,
    out: FileHandle,
    private readonly url: string,
  ) {
    this.bs = control.blockSize;
    this.length = control.length;
    this.writes = new WriteQueue(out);
  }

  /** Bytes verified but not yet written. */
  get queuedBytes(): number {
    return this.writes.bytes;
  }

  beginPart(range: ContentRange): void {
    if (range.total !== undefined && range.total !== this.length)
      throw zsyncError(
        'TARGET_CHANGED',
        `${this.url} is ${range.total} bytes but the control file describes ${this.length} bytes`,
        { details: { url: this.url, expected: this.length, actual: range.total } },
      );
    if (range.last >= this.length)
      throw zsyncError('RANGE_INVALID', `${this.url} sent bytes past the end of the target`);
    this.cursor = range.first;
    const into = range.first % this.bs;
    this.skip = into === 0 ? 0 : this.bs - into;
    this.partialLen = 0;
  }

  data(chunk: Buffer): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - off);
        this.skip -= n;
        this.cursor += n;
        off += n;
        continue;
      }
      const id = Math.floor(this.cursor / this.bs);
      const blockStart = id * this.bs;
      const blockLen = Math.min(this.bs, this.length - blockStart);
      const have = this.partialLen;
      const need = blockLen - have;
      if (have === 0 && chunk.length - off >= blockLen) {
        this.accept(id, chunk.subarray(off, off + blockLen));
        off += blockLen;
        this.cursor += blockLen;
        continue;
      }
      const n = Math.min(need, chunk.length - off);
      this.partial ??= Buffer.allocUnsafe(this.bs);
      chunk.copy(this.partial, have, off, off + n);
      this.partialLen += n;
      off += n;
      this.cursor += n;
      if (this.partialLen === blockLen) {
        const block = this.partial.subarray(0, blockLen);
        // The buffer may be queued for writing: the next block gets a fresh one.
        this.partial = undefined;
        this.partialLen = 0;
        this.accept(id, block);
      }
    }
  }

  endPart(): void {
    // A block cut short by the end of the part is useless; it is asked for again later.
    this.partialLen = 0;
    this.skip = 0;
  }

  /** Writes everything queued. */
  flush(): Promise<void> {
    return this.writes.flush();
  }

  private accept(id: number, block: Buffer): void {
    if (this.matcher.known[id] !== 0) return;
    const digest = this.hasher.digest(block.length === this.bs ? block : padded(block, this.bs));
    if (!BlockHasher.equals(digest, this.control.checksums, id, this.control.checksumBytes))
      throw zsyncError('BLOCK_CHECKSUM', `block ${id} from ${this.url} does not match the control file`, {
        details: { url: this.url, block: id },
      });
    this.matcher.markKnown(id);
    this.bytesReceived += block.length;
    this.writes.push(id * this.bs, block);
  }
}

function padded(block: Buffer, size: number): Buffer {
  const b = Buffer.alloc(size);
  block.copy(b);
  return b;
}
