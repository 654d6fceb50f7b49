import { inflateRawSync } from 'node:zlib';
import { parseJsonWithin, type JsonLimits } from '../../core/bounded-json.js';

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
/** No map inflates past this, whatever the file's size (the bound below reaches it near 3 GiB). */
const MAX_INFLATED_BYTES = 48 * 1024 * 1024;
/**
 * Chunks are cut at 8 KiB at the least (only the last may be shorter); counting one per 4 KiB
 * leaves a factor of two for other chunkers before a real map is refused.
 */
const BYTES_PER_CHUNK_AT_LEAST = 4096;
/**
 * One chunk in the JSON: a 24-character checksum in quotes and a size of at most 8 digits, each
 * with its comma, is 36 bytes written compactly (as electron-builder does); 64 leaves room for
 * indentation.
 */
const JSON_BYTES_PER_CHUNK = 64;
/** `{"version":"2","files":[{"name":…,"offset":0,"checksums":[],"sizes":[]}]}` and a long name. */
const JSON_FIXED_BYTES = 4096;
/** A version 2 map is 4 levels deep (object, files, file, lists); 8 leaves room for extra keys. */
const MAX_MAP_DEPTH = 8;
/** Real chunks are 8–32 KiB; a larger one would make us hold it in memory whole. */
export const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
/** base64 of 18 bytes: 24 characters, no padding. */
const CHECKSUM = /^[A-Za-z0-9+/]{24}$/;

/**
 * The length of the deflated JSON named by a file's last 4 bytes, or undefined when it cannot be
 * a block map of a file of `fileSize` bytes: deflating never grows data past zlib's
 * `deflateBound`, so a tail longer than that of the most JSON the file can need is not read.
 */
export function tailJsonLength(trailer: Buffer, fileSize: number): number | undefined {
  if (trailer.length !== TRAILER_BYTES) return undefined;
  const length = trailer.readUInt32BE(0);
  const n = blockMapLimits(fileSize).maxBytes;
  const deflateBound = n + (n >>> 12) + (n >>> 14) + (n >>> 25) + 13;
  if (length === 0 || length > Math.min(MAX_TAIL_JSON_BYTES, deflateBound)) return undefined;
  if (length + TRAILER_BYTES >= fileSize) return undefined;
  return length;
}

/** The most chunks a block map of a `fileSize`-byte file can list. */
function maxChunks(fileSize: number): number {
  return Math.ceil(fileSize / BYTES_PER_CHUNK_AT_LEAST) + 1;
}

/**
 * The JSON limits of the block map of a `fileSize`-byte file: its inflated size grows with the
 * chunks the file can have, so a 30 MB AppImage's map may inflate to ~500 KB, never to the 48 MiB
 * of nested brackets a hostile tail of 48 KiB deflates from.
 */
export function blockMapLimits(fileSize: number): JsonLimits & { maxBytes: number } {
  const chunks = maxChunks(fileSize);
  return {
    maxBytes: Math.min(MAX_INFLATED_BYTES, JSON_FIXED_BYTES + JSON_BYTES_PER_CHUNK * chunks),
    maxDepth: MAX_MAP_DEPTH,
    // Two values per chunk (its size and its checksum) plus the few of the frame.
    maxValues: 2 * chunks + 64,
  };
}

/** Why a tail is not a block map, for the fallback warning. */
export interface BlockMapRefusal {
  refused: string;
}

/**
 * Parses a tail's deflated JSON. It is a block map only when it inflates within the bounds of
 * `blockMapLimits(fileSize)` (the inflater stops at the byte limit), passes its JSON limits,
 * parses as a version 2 map of one file, and its chunk sizes plus the tail add up to `fileSize`
 * exactly; anything else is a refusal saying why.
 */
export function decodeBlockMap(deflated: Buffer, fileSize: number): BlockMap | BlockMapRefusal {
  const limits = blockMapLimits(fileSize);
  let text: string;
  try {
    text = inflateRawSync(deflated, { maxOutputLength: limits.maxBytes }).toString('utf8');
  } catch (err) {
    const tooLarge = (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    return {
      refused: tooLarge
        ? `its JSON inflates to more than the ${limits.maxBytes} bytes a map of ${fileSize} bytes can need`
        : 'its tail is not deflated data',
    };
  }
  const parsed = parseJsonWithin(text, limits);
  if (!parsed.ok) return { refused: `its JSON ${parsed.message}` };
  const map = mapOf(parsed.value, deflated.length + TRAILER_BYTES, fileSize);
  return map ?? { refused: 'its JSON is not a version 2 map whose chunks add up to the file' };
}

/** The block map of a tail, or undefined ("no block map"); see decodeBlockMap for why not. */
export function parseBlockMap(deflated: Buffer, fileSize: number): BlockMap | undefined {
  const map = decodeBlockMap(deflated, fileSize);
  return 'refused' in map ? undefined : map;
}

function mapOf(doc: unknown, tailSize: number, fileSize: number): BlockMap | undefined {
  if (!isRecord(doc) || doc.version !== '2' || !Array.isArray(doc.files) || doc.files.length !== 1)
    return undefined;
  const file: unknown = doc.files[0];
  if (!isRecord(file) || file.offset !== 0) return undefined;
  const { sizes, checksums } = file;
  if (!Array.isArray(sizes) || !Array.isArray(checksums)) return undefined;
  if (sizes.length === 0 || sizes.length !== checksums.length) return undefined;
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
