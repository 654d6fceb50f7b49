import type { FileHandle } from 'node:fs/promises';
import type { Attempt } from './attempt.js';

// Chunks are gathered and written with one positional writev: fewer syscalls, no copying.
const FLUSH_BYTES = 1 << 20;
const FLUSH_BUFFERS = 512;

/** Where a body goes: positions in the file, advanced as bytes arrive and are written. */
export interface PumpCursor {
  received: number;
  written: number;
}

/** Options of one body transfer. */
export interface PumpOptions {
  file: FileHandle;
  cursor: PumpCursor;
  attempt: Attempt;
  /** Exclusive upper bound, read on every chunk (work stealing may lower it); undefined = none. */
  limit: () => number | undefined;
  /**
   * At the limit, keep reading (and dropping) until the body ends instead of destroying the
   * response: right when the limit is where the request asked the body to end, so the
   * connection stays reusable.
   */
  drainAtLimit?: () => boolean;
  /** Called after each write, in order, with the position and the buffers written there. */
  onWritten: (position: number, buffers: readonly Buffer[]) => void;
}

/**
 * Streams a response body into the file at the cursor with positional writes. Returns true when
 * the limit was reached (the rest of the body is dropped), false when the body ended first. Bytes received before a failure are written before the error propagates, so a
 * retry resumes after them.
 */
export async function pumpBody(body: AsyncIterable<Buffer>, options: PumpOptions): Promise<boolean> {
  const { file, cursor, attempt } = options;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let reachedLimit = false;

  const flush = async (): Promise<void> => {
    if (pendingBytes === 0) return;
    const buffers = pending;
    const position = cursor.written;
    const total = pendingBytes;
    pending = [];
    pendingBytes = 0;
    await writeFully(file, buffers, position, total);
    cursor.written += total;
    options.onWritten(position, buffers);
  };

  try {
    for await (const raw of body) {
      attempt.touch();
      let chunk = raw;
      const limit = options.limit();
      if (limit !== undefined && cursor.received + chunk.length > limit) {
        chunk = chunk.subarray(0, Math.max(0, limit - cursor.received));
      }
      if (chunk.length > 0) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        cursor.received += chunk.length;
      }
      if (limit !== undefined && cursor.received >= limit) {
        await flush();
        if (!options.drainAtLimit?.()) return true;
        reachedLimit = true;
        continue;
      }
      if (pendingBytes >= FLUSH_BYTES || pending.length >= FLUSH_BUFFERS) await flush();
    }
  } catch (err) {
    await flush();
    throw err;
  }
  await flush();
  return reachedLimit;
}

async function writeFully(
  file: FileHandle,
  buffers: Buffer[],
  position: number,
  total: number,
): Promise<void> {
  let done = 0;
  let rest = buffers;
  while (done < total) {
    const { bytesWritten } = await file.writev(rest, position + done);
    done += bytesWritten;
    if (done < total) rest = dropBytes(rest, bytesWritten);
  }
}

function dropBytes(buffers: Buffer[], count: number): Buffer[] {
  const out: Buffer[] = [];
  let skip = count;
  for (const b of buffers) {
    if (skip >= b.length) {
      skip -= b.length;
      continue;
    }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}
