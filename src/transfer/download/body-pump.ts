import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Attempt } from './attempt.js';
import { bodyClosedEarly } from './errors.js';
import { PROGRESS_INTERVAL_MS } from '../progress-interval.js';

// Chunks are gathered and written with one positional writev: fewer syscalls, no copying. Small
// enough that little is held in memory per connection.
const FLUSH_BYTES = 256 * 1024;
const FLUSH_BUFFERS = 512;
// While one write is in flight the socket keeps being read; past this backlog it is paused. A
// larger backlog bought no speed and, with four connections, held ~60 MB more at peak.
const MAX_BACKLOG_BYTES = 256 * 1024;

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
  /**
   * The limit is a size the body must not exceed (not where to stop reading): a byte beyond it
   * fails the pump with this error, and nothing beyond the limit is written.
   */
  overflow?: () => Error;
  /** Called after each write, in order, with the position and the buffers written there. */
  onWritten: (position: number, buffers: readonly Buffer[]) => void;
}

/**
 * Streams a response body into the file at the cursor with positional writes, reading on while
 * a write is in flight. Resolves true when the limit was reached (the rest of the body is
 * dropped), false when the body ended first. Bytes received before a failure are written
 * before the error propagates, so a retry resumes after them.
 */
export function pumpBody(body: Readable, options: PumpOptions): Promise<boolean> {
  const { file, cursor, attempt } = options;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let writing = false;
  let reachedLimit = false;
  let finished = false;
  let failure: unknown;
  let settled = false;
  // Progress is reported after each write: while bytes wait for a batch to fill, at most
  // PROGRESS_INTERVAL_MS pass between writes (a slow link takes seconds to fill 256 KiB).
  // Counted from the last write, so bytes after a quiet spell are written at once.
  let flushTimer: NodeJS.Timeout | undefined;
  let lastWriteAt = Date.now();

  return new Promise<boolean>((resolve, reject) => {
    const settle = (): void => {
      if (settled || writing || pendingBytes > 0) return;
      settled = true;
      clearTimeout(flushTimer);
      body.off('data', onData);
      attempt.signal.removeEventListener('abort', onAbort);
      if (failure === undefined) resolve(reachedLimit);
      else reject(failure instanceof Error ? failure : new Error('response body failed', { cause: failure }));
    };

    const fail = (err: unknown): void => {
      if (finished || failure !== undefined) return;
      failure = err;
      stopBody();
      kick();
    };

    const kick = (): void => {
      if (writing) return;
      const last = finished || failure !== undefined;
      const batchFull = pendingBytes >= FLUSH_BYTES || pending.length >= FLUSH_BUFFERS;
      const wait = lastWriteAt + PROGRESS_INTERVAL_MS - Date.now();
      if (pendingBytes === 0 || (!last && !batchFull && wait > 0)) {
        if (last) settle();
        else if (pendingBytes > 0) flushTimer ??= setTimeout(flushDue, wait);
        return;
      }
      clearTimeout(flushTimer);
      flushTimer = undefined;
      lastWriteAt = Date.now();
      const buffers = pending;
      const total = pendingBytes;
      const position = cursor.written;
      pending = [];
      pendingBytes = 0;
      writing = true;
      if (body.isPaused() && !last) body.resume();
      writeFully(file, buffers, position, total).then(
        () => {
          writing = false;
          cursor.written += total;
          options.onWritten(position, buffers);
          kick();
        },
        (err: unknown) => {
          writing = false;
          // A disk error wins over anything the network did; unwritten bytes are lost.
          failure = err;
          pending = [];
          pendingBytes = 0;
          stopBody();
          settle();
        },
      );
    };

    const flushDue = (): void => {
      flushTimer = undefined;
      kick();
    };

    const stopBody = (): void => {
      body.off('data', onData);
      body.on('error', () => undefined);
      body.destroy();
    };

    const onData = (raw: Buffer): void => {
      if (finished || failure !== undefined) return;
      attempt.touch(raw.length);
      let chunk = raw;
      const limit = options.limit();
      if (options.overflow && limit !== undefined) {
        if (cursor.received + chunk.length > limit) return fail(options.overflow());
        pending.push(chunk);
        pendingBytes += chunk.length;
        cursor.received += chunk.length;
        if (pendingBytes >= MAX_BACKLOG_BYTES) body.pause();
        return kick();
      }
      if (limit !== undefined && cursor.received + chunk.length > limit) {
        chunk = chunk.subarray(0, Math.max(0, limit - cursor.received));
      }
      if (chunk.length > 0) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        cursor.received += chunk.length;
      }
      if (limit !== undefined && cursor.received >= limit) {
        reachedLimit = true;
        if (!options.drainAtLimit?.()) {
          finished = true;
          stopBody();
        }
      }
      if (pendingBytes >= MAX_BACKLOG_BYTES) body.pause();
      kick();
    };

    // Stalls, aborts and cancels end the pump even when the stream itself has gone quiet.
    const onAbort = (): void => fail(attempt.signal.reason ?? new Error('aborted'));

    // The stream may have failed while nobody listened (e.g. during an await before the pump).
    if (body.errored) return fail(body.errored);
    if (body.destroyed && !body.readableEnded) return fail(bodyClosedEarly());
    if (attempt.signal.aborted) return onAbort();
    attempt.signal.addEventListener('abort', onAbort, { once: true });
    body.on('data', onData);
    body.once('end', () => {
      finished = true;
      kick();
    });
    body.once('error', (err: unknown) => fail(err));
    body.once('close', () => {
      if (!body.readableEnded) fail(bodyClosedEarly());
    });
  });
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
