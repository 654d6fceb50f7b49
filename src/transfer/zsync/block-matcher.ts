import type { ZsyncControl } from './control-file.js';
import { BlockHasher } from './block-hasher.js';
import { blockRsum, rsumMasks } from './rolling-checksum.js';
import { TargetIndex } from './target-index.js';

/**
 * The rsync/zsync matching core: slides a window over buffers of seed data, rolling the weak
 * checksum byte by byte, looks candidates up in the target index and confirms them with MD4.
 * Pure and synchronous: it records (buffer offset, target block) pairs; the caller does the I/O.
 *
 * With seq_matches = 2 a block is only accepted through the index when the block after it
 * matches too (both weak sums and both MD4s); once a run is established, the next target block
 * is tried directly at the next seed block ("continuation"), which is how the last block of a
 * run, and of the file, are found.
 */
export class BlockMatcher {
  /** Blocks already available in the output (from the seed or the network). */
  readonly known: Uint8Array;
  /** Offsets (in the current buffer) and target ids recorded by the last `scan`. */
  readonly matchOffsets: number[] = [];
  readonly matchIds: number[] = [];
  /** Number of distinct target blocks found so far. */
  blocksFound = 0;

  private readonly index: TargetIndex;
  private readonly bs: number;
  private readonly shift: number;
  private readonly context: number;
  private readonly seq2: boolean;
  private readonly aMask: number;
  private readonly bMask: number;
  private readonly n: number;
  private readonly cb: number;
  private readonly checksums: Uint8Array;

  // Rolling state, carried from one buffer to the next.
  private valid = false;
  private a0 = 0;
  private b0 = 0;
  private a1 = 0;
  private b1 = 0;
  private nextMatch = -1;

  constructor(
    control: ZsyncControl,
    private readonly hasher: BlockHasher,
  ) {
    this.index = new TargetIndex(control);
    this.bs = control.blockSize;
    this.shift = Math.log2(control.blockSize);
    this.seq2 = control.seqMatches === 2;
    this.context = control.blockSize * control.seqMatches;
    const masks = rsumMasks(control.rsumBytes);
    this.aMask = masks.a;
    this.bMask = masks.b;
    this.n = control.blockCount;
    this.cb = control.checksumBytes;
    this.checksums = control.checksums;
    this.known = new Uint8Array(control.blockCount);
  }

  /** Bytes of look-ahead a window needs: the caller carries this many bytes between buffers. */
  get contextBytes(): number {
    return this.context;
  }

  /**
   * Scans windows starting at `start` while a full context fits before `end`; returns the offset
   * of the first window not scanned (the caller carries `buf[ret..end)` into the next buffer).
   * At end of input the caller appends `contextBytes` zero bytes, like zsync, so windows that
   * straddle the end still compare against the zero-padded last block.
   */
  scan(buf: Uint8Array, start: number, end: number): number {
    this.matchOffsets.length = 0;
    this.matchIds.length = 0;
    const { bs, shift, context, seq2, aMask, bMask, n, known } = this;
    const { head, next, rsums } = this.index;
    const hshift = this.index.shift;
    let { a0, b0, a1, b1, valid, nextMatch } = this;
    let x = start;

    while (x + context < end) {
      // Inside a run the next target block is tried first, straight with MD4: computing weak sums
      // for every block of a mostly unchanged file would cost more than the MD4 they could save.
      if (nextMatch >= 0) {
        const id = nextMatch;
        nextMatch = -1;
        if (
          id < n &&
          known[id] === 0 &&
          (!valid || rsums[id] === (((a0 & aMask) << 16) | (b0 & bMask)) >>> 0) &&
          this.blockEquals(buf, x, id)
        ) {
          this.record(x, id);
          nextMatch = id + 1;
          x += bs;
          valid = false;
          continue;
        }
      }

      if (!valid) {
        const r0 = blockRsum(buf, x, bs);
        a0 = r0 >>> 16;
        b0 = r0 & 0xffff;
        if (seq2) {
          const r1 = blockRsum(buf, x + bs, bs);
          a1 = r1 >>> 16;
          b1 = r1 & 0xffff;
        }
        valid = true;
      }
      const k0 = (((a0 & aMask) << 16) | (b0 & bMask)) >>> 0;

      const k1 = seq2 ? (((a1 & aMask) << 16) | (b1 & bMask)) >>> 0 : 0;
      const h = Math.imul(k0 ^ Math.imul(k1, 0x85ebca6b), 0x9e3779b1) >>> hshift;
      if (head[h]! >= 0) {
        const matched = this.checkChain(h, buf, x, k0, k1, head, next, rsums);
        if (matched >= 0) {
          nextMatch = matched + (seq2 ? 2 : 1);
          x += context;
          valid = false;
          continue;
        }
      }

      const oc = buf[x]!;
      const nc = buf[x + bs]!;
      a0 = (a0 + nc - oc) & 0xffff;
      b0 = (b0 + a0 - (oc << shift)) & 0xffff;
      if (seq2) {
        const nn = buf[x + context]!;
        a1 = (a1 + nn - nc) & 0xffff;
        b1 = (b1 + a1 - (nc << shift)) & 0xffff;
      }
      x++;
    }

    this.a0 = a0;
    this.b0 = b0;
    this.a1 = a1;
    this.b1 = b1;
    this.valid = valid;
    this.nextMatch = nextMatch;
    return x;
  }

  /** Marks blocks fetched from the network as known so the index stops offering them. */
  markKnown(id: number): void {
    if (this.known[id] === 0) {
      this.known[id] = 1;
      this.blocksFound++;
    }
  }

  private record(offset: number, id: number): void {
    this.known[id] = 1;
    this.blocksFound++;
    this.matchOffsets.push(offset);
    this.matchIds.push(id);
  }

  private blockEquals(buf: Uint8Array, offset: number, id: number): boolean {
    const d = this.hasher.digest(buf.subarray(offset, offset + this.bs));
    return BlockHasher.equals(d, this.checksums, id, this.cb);
  }

  /**
   * Walks one bucket, confirming every candidate (identical target blocks all get filled from
   * this one seed position) and unlinking blocks that are already known. Returns the first
   * matched id, or -1.
   */
  private checkChain(
    h: number,
    buf: Uint8Array,
    x: number,
    k0: number,
    k1: number,
    head: Int32Array,
    next: Int32Array,
    rsums: Uint32Array,
  ): number {
    const { seq2, n, known, bs, checksums, cb } = this;
    let first = -1;
    let md0: Uint8Array | undefined;
    let md1: Uint8Array | undefined;
    let prev = -1;
    let e = head[h]!;
    while (e >= 0) {
      const following = next[e]!;
      let drop = known[e] !== 0;
      if (!drop && rsums[e] === k0 && (!seq2 || rsums[e + 1] === k1)) {
        md0 ??= this.hasher.digest(buf.subarray(x, x + bs));
        let ok = BlockHasher.equals(md0, checksums, e, cb);
        if (ok && seq2 && e + 1 < n) {
          md1 ??= this.hasher.digest(buf.subarray(x + bs, x + 2 * bs));
          ok = BlockHasher.equals(md1, checksums, e + 1, cb);
        }
        if (ok) {
          this.record(x, e);
          if (seq2 && e + 1 < n && known[e + 1] === 0) this.record(x + bs, e + 1);
          if (first < 0) first = e;
          drop = true;
        }
      }
      if (drop) {
        if (prev < 0) head[h] = following;
        else next[prev] = following;
      } else {
        prev = e;
      }
      e = following;
    }
    return first;
  }
}
