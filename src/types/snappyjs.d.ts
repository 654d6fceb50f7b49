// snappyjs ships no types; these are the two functions it exports.
declare module 'snappyjs' {
  /** Decodes a raw Snappy block; throws when the preamble announces more than `maxLength` bytes. */
  export function uncompress(compressed: Buffer, maxLength?: number): Buffer;
  /** Encodes bytes as one raw Snappy block. */
  export function compress(uncompressed: Buffer): Buffer;
}
