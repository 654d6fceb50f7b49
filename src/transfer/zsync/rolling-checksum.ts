/**
 * The rsync/zsync weak checksum over one block: `a` = sum of the bytes, `b` = sum of the bytes
 * weighted by their distance from the block's end, both modulo 2^16. It rolls by one byte in O(1).
 */

/** Masks that keep only the bytes of `(a << 16) | b` a control file stores. */
export interface RsumMasks {
  a: number;
  b: number;
}

/** Which parts of `a` and `b` survive when only the last `rsumBytes` bytes of the 4-byte sum are kept. */
export function rsumMasks(rsumBytes: number): RsumMasks {
  return {
    a: rsumBytes >= 4 ? 0xffff : rsumBytes === 3 ? 0xff : 0,
    b: rsumBytes >= 2 ? 0xffff : 0xff,
  };
}

/** The checksum `(a << 16) | b` (unmasked) of `len` bytes at `start`; bytes past the buffer count as 0. */
export function blockRsum(data: Uint8Array, start: number, len: number): number {
  let a = 0;
  let b = 0;
  const end = Math.min(start + len, data.length);
  for (let i = start, w = len; i < end; i++, w--) {
    const c = data[i]!;
    a = (a + c) | 0;
    // `| 0` wraps modulo 2^32, which keeps the low 16 bits exact however large the block is.
    b = (b + w * c) | 0;
  }
  return (((a & 0xffff) << 16) | (b & 0xffff)) >>> 0;
}
