import type { ZsyncControl } from './control-file.js';

const MIX1 = 0x85ebca6b;
const MIX2 = 0x9e3779b1;

/**
 * Hash table of the target's blocks keyed by their weak checksum (and, with seq_matches = 2, the
 * following block's too), as singly linked chains in typed arrays so a lookup allocates nothing.
 */
export class TargetIndex {
  /** First block id per bucket, -1 when empty. */
  readonly head: Int32Array;
  /** Next block id in the same bucket, -1 at the end. */
  readonly next: Int32Array;
  /** Weak checksums with one extra zero entry: the block "after" the last one is the zero padding. */
  readonly rsums: Uint32Array;
  /** Right shift that turns the 32-bit mixed key into a bucket number. */
  readonly shift: number;

  constructor(control: ZsyncControl) {
    const n = control.blockCount;
    let bits = 10;
    while (1 << bits < n * 2 && bits < 24) bits++;
    this.shift = 32 - bits;
    this.head = new Int32Array(1 << bits).fill(-1);
    this.next = new Int32Array(n).fill(-1);
    this.rsums = new Uint32Array(n + 1);
    this.rsums.set(control.rsums);
    const seq2 = control.seqMatches === 2;
    // Inserted backwards so each chain lists lower block ids first.
    for (let id = n - 1; id >= 0; id--) {
      const h = this.bucket(this.rsums[id]!, seq2 ? this.rsums[id + 1]! : 0);
      this.next[id] = this.head[h]!;
      this.head[h] = id;
    }
  }

  /** Bucket of a (block, following block) pair of masked weak checksums. */
  bucket(key0: number, key1: number): number {
    return Math.imul(key0 ^ Math.imul(key1, MIX1), MIX2) >>> this.shift;
  }
}
