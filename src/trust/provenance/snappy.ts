/**
 * Snappy decoding of attestation bundles served through `bundle_url`. GitHub serves the raw block
 * format (a varint length preamble, then the compressed stream); the framing format is refused
 * by name. The decompressed size is bounded from the preamble before anything is allocated.
 */
import { uncompress } from 'snappyjs';
import { ProvenanceError } from './errors.js';

/** Largest decompressed bundle accepted (real bundles are a few KiB). */
export const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;

const FRAMED_MAGIC = Buffer.from([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59]);

/** The length a raw Snappy block announces, or undefined when the varint is malformed. */
export function snappyLength(data: Buffer): number | undefined {
  let value = 0;
  // A 32-bit length takes at most five varint bytes.
  for (let i = 0; i < 5 && i < data.length; i++) {
    const byte = data[i] ?? 0;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if ((byte & 0x80) === 0) return value;
  }
  return undefined;
}

/** Decodes a raw Snappy block of at most `limit` bytes; PROVENANCE_INVALID otherwise. */
export function decodeSnappy(data: Buffer, source: string, limit = MAX_BUNDLE_BYTES): Buffer {
  if (data.subarray(0, FRAMED_MAGIC.length).equals(FRAMED_MAGIC)) {
    throw new ProvenanceError(
      'PROVENANCE_INVALID',
      `${source} is framed Snappy; only the raw block format is read`,
    );
  }
  const length = snappyLength(data);
  if (length === undefined) throw new ProvenanceError('PROVENANCE_INVALID', `${source} is not Snappy data`);
  if (length > limit) {
    throw new ProvenanceError(
      'PROVENANCE_INVALID',
      `${source} would decompress to ${length} bytes (more than the ${limit} accepted)`,
    );
  }
  try {
    return uncompress(data, limit);
  } catch (err) {
    throw new ProvenanceError(
      'PROVENANCE_INVALID',
      `${source} is corrupt Snappy data: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
