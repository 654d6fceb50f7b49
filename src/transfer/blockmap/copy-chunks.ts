import type { FileHandle } from 'node:fs/promises';
import type { ChunkHasher } from './chunk-hasher.js';
import { blockmapError } from './errors.js';
import type { BlockMap } from './format.js';
import type { CopyRun } from './plan.js';

/** Old-file bytes read and hashed at once. */
const PIECE_BYTES = 4 * 1024 * 1024;

/** Everything the copy step needs. */
export interface CopyOptions {
  seed: FileHandle;
  out: FileHandle;
  next: BlockMap;
  runs: readonly CopyRun[];
  hasher: ChunkHasher;
  /** Set to 1 for every chunk copied and verified. */
  known: Uint8Array;
  signal?: AbortSignal | undefined;
}

/**
 * Copies the planned chunks from the installed file into the new one, each checked against the
 * new map's BLAKE2b first: a chunk the old file's map promises but whose bytes were changed
 * locally stays unknown and is downloaded instead. Returns the bytes copied.
 */
export async function copyChunks(opts: CopyOptions): Promise<number> {
  const { next, known } = opts;
  let reused = 0;
  // One buffer for every piece: each piece is written before the next one is read.
  let piece = Buffer.alloc(0);
  for (const run of opts.runs) {
    let first = run.first;
    let from = run.from;
    while (first <= run.last) {
      if (opts.signal?.aborted) throw blockmapError('ABORTED', 'block map update aborted');
      let last = first;
      let bytes = next.sizes[first]!;
      while (last < run.last && bytes + next.sizes[last + 1]! <= PIECE_BYTES) bytes += next.sizes[++last]!;
      if (piece.length < bytes) piece = Buffer.allocUnsafe(Math.max(bytes, PIECE_BYTES));
      const buf = piece.subarray(0, bytes);
      const got = await readUpTo(opts.seed, buf, from);
      let at = 0;
      let spanStart = -1;
      const spans: [number, number][] = [];
      for (let id = first; id <= last; id++) {
        const size = next.sizes[id]!;
        const good =
          at + size <= got && opts.hasher.checksum(buf.subarray(at, at + size)) === next.checksums[id];
        if (good) {
          known[id] = 1;
          reused += size;
          if (spanStart < 0) spanStart = at;
        } else if (spanStart >= 0) {
          spans.push([spanStart, at]);
          spanStart = -1;
        }
        at += size;
      }
      if (spanStart >= 0) spans.push([spanStart, at]);
      const base = next.offsets[first]!;
      for (const [a, b] of spans) await writeAll(opts.out, buf.subarray(a, b), base + a);
      from += bytes;
      first = last + 1;
    }
  }
  return reused;
}

/** Reads up to `buf.length` bytes at `position`; fewer only at the end of the file. */
async function readUpTo(fh: FileHandle, buf: Buffer, position: number): Promise<number> {
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await fh.read(buf, got, buf.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

/** Writes all of `buf` at `position`. */
export async function writeAll(fh: FileHandle, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    done += bytesWritten;
  }
}
