import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { KeeperError } from '../../core/errors.js';
import type { BlockMatcher } from './block-matcher.js';
import { zsyncError } from './errors.js';

/** Options of one pass over the seed file. */
export interface SeedScanOptions {
  seedPath: string;
  matcher: BlockMatcher;
  /** Output file: matched blocks are written at their target offsets. */
  out: FileHandle;
  blockSize: number;
  /** Target length: the last block is written short. */
  length: number;
  signal?: AbortSignal | undefined;
  /** Bytes read per chunk (default 4 MiB). */
  chunkBytes?: number;
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;

/**
 * Streams the seed through the matcher in fixed-size chunks (two buffers, the next read in flight
 * while the current one is scanned) and copies every matched block into the output with
 * positional writes. Memory stays at two chunks whatever the seed's size. Returns the number of
 * target bytes taken from the seed.
 */
export async function scanSeed(opts: SeedScanOptions): Promise<number> {
  const { matcher, out, blockSize: bs, length } = opts;
  const ctx = matcher.contextBytes;
  const chunk = Math.max(opts.chunkBytes ?? DEFAULT_CHUNK, ctx);
  let seed: FileHandle;
  let pending: Promise<{ bytesRead: number }> | undefined;
  try {
    seed = await open(opts.seedPath, 'r');
  } catch (cause) {
    throw zsyncError('SEED', `cannot read the installed file ${opts.seedPath}`, { cause });
  }
  try {
    const size = (await seed.stat()).size;
    // Layout of each buffer: [carry slack (ctx)][chunk data][zero padding at EOF (ctx)].
    const bufs = [Buffer.alloc(ctx + chunk + ctx), Buffer.alloc(ctx + chunk + ctx)] as const;
    let cur = 0;
    let pos = 0;
    let carry = 0;
    let reused = 0;
    let reading = seed.read(bufs[0], ctx, Math.min(chunk, size), 0);
    pending = reading;
    for (;;) {
      const { bytesRead } = await reading;
      pending = undefined;
      pos += bytesRead;
      const eof = bytesRead === 0 || pos >= size;
      const buf = bufs[cur]!;
      const other = bufs[cur ^ 1]!;
      if (!eof) {
        reading = seed.read(other, ctx, Math.min(chunk, size - pos), pos);
        pending = reading;
      }
      if (opts.signal?.aborted)
        throw zsyncError('ABORTED', 'zsync update aborted', { cause: opts.signal.reason });
      let end = ctx + bytesRead;
      if (eof) {
        buf.fill(0, end, end + ctx);
        end += ctx;
      }
      const stop = matcher.scan(buf, ctx - carry, end);
      reused += await writeMatches(matcher, buf, out, bs, length);
      if (eof) return reused;
      carry = end - stop;
      buf.copy(other, ctx - carry, stop, end);
      cur ^= 1;
    }
  } catch (cause) {
    if (cause instanceof KeeperError) throw cause;
    throw zsyncError('SEED', `failed while reading ${opts.seedPath}`, { cause });
  } finally {
    // A prefetch may still be in flight when scanning fails; let it settle before closing.
    await pending?.catch(() => undefined);
    await seed.close();
  }
}

/** Writes the blocks found in `buf`, merging consecutive ones into one write each. */
async function writeMatches(
  matcher: BlockMatcher,
  buf: Buffer,
  out: FileHandle,
  bs: number,
  length: number,
): Promise<number> {
  const offs = matcher.matchOffsets;
  const ids = matcher.matchIds;
  const writes: Promise<unknown>[] = [];
  let total = 0;
  let i = 0;
  while (i < offs.length) {
    const off = offs[i]!;
    const id = ids[i]!;
    let j = i + 1;
    while (j < offs.length && offs[j] === off + (j - i) * bs && ids[j] === id + (j - i)) j++;
    const bytes = Math.min((j - i) * bs, length - id * bs);
    total += bytes;
    writes.push(out.write(buf, off, bytes, id * bs));
    i = j;
  }
  await Promise.all(writes);
  return total;
}
