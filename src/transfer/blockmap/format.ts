import { inflateRawSync } from 'node:zlib';

/**
 * The block map electron-builder appends to an AppImage: `[deflate-raw JSON][u32 BE length]`, the
 * JSON listing content-defined chunks of the file before the tail with their BLAKE2b checksums.
 */
export interface BlockMap {
  /** Length of the whole file, tail included. */
  fileSize: number;
  /** Bytes of the tail: the deflated JSON plus its 4-byte length. */
  tailSize: number;
  /** Start offset of every chunk. */
  offsets: number[];
  sizes: number[];
  /** base64 of each chunk's 18-byte BLAKE2b. */
  checksums: string[];
}

/** Bytes of the big-endian length that ends the file. */
export const TRAILER_BYTES = 4;
/** A 4 GiB file at 8 KiB chunks needs ~20 MB of JSON, compressed about two thirds of that. */
export const MAX_TAIL_JSON_BYTES = 24 * 1024 * 1024;
const MAX_INFLATED_BYTES = 48 * 1024 * 1024;
/** Real chunks are 8–32 KiB; a larger one would make us hold it in memory whole. */
export const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
/** base64 of 18 bytes: 24 characters, no padding. */
const CHECKSUM = /^[A-Za-z0-9+/]{24}$/;

/**
 * The length of the deflated JSON named by a file's last 4 bytes, or undefined when it cannot be
 * a block map of a file of `fileSize` bytes.
 */
export function tailJsonLength(trailer: Buffer, fileSize: number): number | undefined {
  if (trailer.length !== TRAILER_BYTES) return undefined;
  const length = trailer.readUInt32BE(0);
  if (length === 0 || length > MAX_TAIL_JSON_BYTES || length + TRAILER_BYTES >= fileSize) return undefined;
  return length;
}

/**
 * Parses a tail's deflated JSON. It is a block map only when it inflates within bounds, parses as
 * a version 2 map of one file, and its chunk sizes plus the tail add up to `fileSize` exactly;
 * anything else is undefined ("no block map").
 */
export function parseBlockMap(deflated: Buffer, fileSize: number): BlockMap | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(inflateRawSync(deflated, { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || doc.version !== '2' || !Array.isArray(doc.files) || doc.files.length !== 1)
    return undefined;
  const file: unknown = doc.files[0];
  if (!isRecord(file) || file.offset !== 0) return undefined;
  const { sizes, checksums } = file;
  if (!Array.isArray(sizes) || !Array.isArray(checksums)) return undefined;
  if (sizes.length === 0 || sizes.length !== checksums.length) return undefined;
  const tailSize = deflated.length + TRAILER_BYTES;
  const offsets: number[] = new Array<number>(sizes.length);
  let at = 0;
  for (let i = 0; i < sizes.length; i++) {
    const size: unknown = sizes[i];
    const sum: unknown = checksums[i];
    if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0 || size > MAX_CHUNK_BYTES)
      return undefined;
    if (typeof sum !== 'string' || !CHECKSUM.test(sum)) return undefined;
    offsets[i] = at;
    at += size;
    if (at + tailSize > fileSize) return undefined;
  }
  if (at + tailSize !== fileSize) return undefined;
  return { fileSize, tailSize, offsets, sizes: sizes as number[], checksums: checksums as string[] };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
