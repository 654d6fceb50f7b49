import { inflateSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import xzDecompress from 'xz-decompress';
import { KeeperError } from '../../core/errors.js';
import { corrupt } from './errors.js';
import { decodeLz4Block } from './lz4.js';
import { CompressorId } from './superblock.js';

/** Decompresses one block; the result never exceeds `maxOut` bytes (more is corruption). */
export type Decompressor = (input: Buffer, maxOut: number) => Promise<Buffer>;

const NAMES: Record<number, string> = { 1: 'gzip', 2: 'lzma', 3: 'lzo', 4: 'xz', 5: 'lz4', 6: 'zstd' };

/** Human name of a SquashFS compressor id. */
export function compressorName(id: number): string {
  return NAMES[id] ?? `unknown(${id})`;
}

const gzip: Decompressor = (input, maxOut) => {
  try {
    return Promise.resolve(inflateSync(input, { maxOutputLength: maxOut }));
  } catch (err) {
    return Promise.reject(corrupt(`gzip block does not inflate: ${(err as Error).message}`));
  }
};

/**
 * What fzstd allocates for a zstd frame, read from its header (content size, else window size, up
 * to 2 GiB); undefined when `input` is no zstd frame. Callers check it first: a block can never
 * legitimately need more than the block size, nor an executable more than its limit.
 */
export function zstdFrameAllocation(input: Buffer): number | undefined {
  if (input.length < 6 || input.readUInt32LE(0) !== 0xfd2fb528) return undefined;
  const flags = input[4] ?? 0;
  const singleSegment = (flags >> 5) & 1;
  const dictBytes = [0, 1, 2, 4][flags & 3] ?? 0;
  const fcsFlag = flags >> 6;
  const fcsBytes = fcsFlag ? 1 << fcsFlag : singleSegment;
  const at = 6 - singleSegment + dictBytes;
  if (input.length < at + fcsBytes) return Infinity;
  let contentSize =
    fcsBytes === 0 ? 0 : fcsBytes === 8 ? Number(input.readBigUInt64LE(at)) : input.readUIntLE(at, fcsBytes);
  if (fcsBytes === 2) contentSize += 256;
  if (contentSize > 0) return contentSize;
  if (singleSegment) return 0;
  const descriptor = input[5] ?? 0;
  const base = 2 ** (10 + (descriptor >> 3));
  return base + (base / 8) * (descriptor & 7);
}

const ZSTD_WINDOW_SLACK = 8 << 20;

const zstd: Decompressor = (input, maxOut) => {
  const alloc = zstdFrameAllocation(input);
  if (alloc !== undefined && alloc > Math.max(maxOut, ZSTD_WINDOW_SLACK)) {
    return Promise.reject(corrupt(`zstd frame claims ${alloc} bytes, more than a block`));
  }
  try {
    const out = zstdDecompress(input);
    if (out.length > maxOut) return Promise.reject(corrupt('zstd block larger than the block size'));
    return Promise.resolve(Buffer.from(out.buffer, out.byteOffset, out.length));
  } catch (err) {
    return Promise.reject(corrupt(`zstd block does not decompress: ${(err as Error).message}`));
  }
};

const XZ_FILTER_NAMES = ['x86', 'powerpc', 'ia64', 'arm', 'armthumb', 'sparc'];

/** xz decoding; `bcjFilters` is the filter bitmask from the compressor options (0 when none). */
function makeXz(bcjFilters: number): Decompressor {
  return async (input, maxOut) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      const stream = new xzDecompress.XzReadableStream(new Blob([input]).stream());
      for await (const chunk of stream) {
        total += chunk.length;
        if (total > maxOut) throw corrupt('xz block larger than the block size');
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof KeeperError) throw err;
      if (bcjFilters !== 0) {
        const names = XZ_FILTER_NAMES.filter((_n, i) => bcjFilters & (1 << i)).join(', ');
        throw new KeeperError(
          'SQUASHFS_UNSUPPORTED_COMPRESSOR',
          `this image uses xz with BCJ filters (${names || bcjFilters}), which the bundled xz decoder cannot decode`,
          {
            hint: 'set manage_desktop_files: false for this app, or ask upstream for a zstd or plain xz build',
          },
        );
      }
      throw corrupt(`xz block does not decompress: ${(err as Error).message}`);
    }
    return Buffer.concat(chunks, total);
  };
}

const lz4: Decompressor = (input, maxOut) => {
  try {
    return Promise.resolve(decodeLz4Block(input, maxOut));
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
};

/** The decompressor for a superblock compressor id; lzo, lzma and unknown ids are refused clearly. */
export function decompressorFor(id: number, options: { xzFilters?: number } = {}): Decompressor {
  switch (id) {
    case CompressorId.gzip:
      return gzip;
    case CompressorId.xz:
      return makeXz(options.xzFilters ?? 0);
    case CompressorId.zstd:
      return zstd;
    case CompressorId.lz4:
      return lz4;
    default:
      throw new KeeperError(
        'SQUASHFS_UNSUPPORTED_COMPRESSOR',
        `SquashFS compressor ${compressorName(id)} is not supported (gzip, xz, zstd and lz4 are)`,
        { hint: 'extract the AppImage manually, or ask upstream to build it with zstd, xz or gzip' },
      );
  }
}
