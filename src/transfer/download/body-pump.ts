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

/** Where one body transfer stands: the batch waiting for a write, and how the pump will end. */
interface PumpState {
  /** Bytes received and not yet handed to a write, in order. */
  pending: Buffer[];
  pendingBytes: number;
  /** A write is in flight (at most one: positions follow each other). */
  writing: boolean;
  /** The limit was reached: the pump resolves true. */
  reachedLimit: boolean;
  /** No byte is taken any more: the body ended, or the limit stopped it. */
  finished: boolean;
  /** Why the pump fails; a disk error replaces whatever the network did. */
  failure: unknown;
  /** The promise was resolved or rejected. */
  settled: boolean;
  // Progress is reported after each write: while bytes wait for a batch to fill, at most
  // PROGRESS_INTERVAL_MS pass between writes (a slow link takes seconds to fill 256 KiB).
  // Counted from the last write, so bytes after a quiet spell are written at once.
  flushTimer: NodeJS.Timeout | undefined;
  lastWriteAt: number;
}

/**
 * Streams a response body into the file at the cursor with positional writes, reading on while
 * a write is in flight. Resolves true when the limit was reached (the rest of the body is
 * dropped), false when the body ended first. Bytes received before a failure are written
 * before the error propagates, so a retry resumes after them.
 */
export function pumpBody(body: Readable, options: PumpOptions): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => new BodyPump(body, options, resolve, reject).start());
}

/** One body transfer: the listeners on the body and the signal, acting on one PumpState. */
class BodyPump {
  private readonly state: PumpState = {
    pending: [],
    pendingBytes: 0,
    writing: false,
    reachedLimit: false,
    finished: false,
    failure: undefined,
    settled: false,
    flushTimer: undefined,
    lastWriteAt: Date.now(),
  };

  constructor(
    private readonly body: Readable,
    private readonly options: PumpOptions,
    private readonly resolve: (reachedLimit: boolean) => void,
    private readonly reject: (err: Error) => void,
  ) {}

  start(): void {
    const { body } = this;
    const { signal } = this.options.attempt;
    // The stream may have failed while nobody listened (e.g. during an await before the pump).
    if (body.errored) return this.fail(body.errored);
    if (body.destroyed && !body.readableEnded) return this.fail(bodyClosedEarly());
    if (signal.aborted) return this.onAbort();
    signal.addEventListener('abort', this.onAbort, { once: true });
    body.on('data', this.onData);
    body.once('end', () => {
      this.state.finished = true;
      this.kick();
    });
    body.once('error', (err: unknown) => this.fail(err));
    body.once('close', () => {
      if (!body.readableEnded) this.fail(bodyClosedEarly());
    });
  }

  /** Ends the promise once nothing is waiting or being written. */
  private settle(): void {
    const st = this.state;
    if (st.settled || st.writing || st.pendingBytes > 0) return;
    st.settled = true;
    clearTimeout(st.flushTimer);
    this.body.off('data', this.onData);
    this.options.attempt.signal.removeEventListener('abort', this.onAbort);
    if (st.failure === undefined) this.resolve(st.reachedLimit);
    else
      this.reject(
        st.failure instanceof Error ? st.failure : new Error('response body failed', { cause: st.failure }),
      );
  }

  private fail(err: unknown): void {
    const st = this.state;
    if (st.finished || st.failure !== undefined) return;
    st.failure = err;
    this.stopBody();
    this.kick();
  }

  /** Writes the pending batch when it is full, due or the last one; else waits or settles. */
  private kick(): void {
    const st = this.state;
    if (st.writing) return;
    const last = st.finished || st.failure !== undefined;
    const batchFull = st.pendingBytes >= FLUSH_BYTES || st.pending.length >= FLUSH_BUFFERS;
    const wait = st.lastWriteAt + PROGRESS_INTERVAL_MS - Date.now();
    if (st.pendingBytes === 0 || (!last && !batchFull && wait > 0)) {
      if (last) this.settle();
      else if (st.pendingBytes > 0) st.flushTimer ??= setTimeout(this.flushDue, wait);
      return;
    }
    clearTimeout(st.flushTimer);
    st.flushTimer = undefined;
    st.lastWriteAt = Date.now();
    const buffers = st.pending;
    const total = st.pendingBytes;
    const { cursor } = this.options;
    const position = cursor.written;
    st.pending = [];
    st.pendingBytes = 0;
    st.writing = true;
    if (this.body.isPaused() && !last) this.body.resume();
    writeFully(this.options.file, buffers, position, total).then(
      () => {
        st.writing = false;
        cursor.written += total;
        this.options.onWritten(position, buffers);
        this.kick();
      },
      (err: unknown) => {
        st.writing = false;
        // A disk error wins over anything the network did; unwritten bytes are lost.
        st.failure = err;
        st.pending = [];
        st.pendingBytes = 0;
        this.stopBody();
        this.settle();
      },
    );
  }

  private readonly flushDue = (): void => {
    this.state.flushTimer = undefined;
    this.kick();
  };

  private stopBody(): void {
    this.body.off('data', this.onData);
    this.body.on('error', () => undefined);
    this.body.destroy();
  }

  /** Queues a chunk for the file, cut at the limit (or failing past an overflow limit). */
  private readonly onData = (raw: Buffer): void => {
    const st = this.state;
    const { options } = this;
    const { cursor } = options;
    if (st.finished || st.failure !== undefined) return;
    options.attempt.touch(raw.length);
    const limit = options.limit();
    if (options.overflow && limit !== undefined && cursor.received + raw.length > limit)
      return this.fail(options.overflow());
    // An overflow limit is a size bound, not where to stop reading: below it, every byte is kept.
    const cut = !options.overflow && limit !== undefined && cursor.received + raw.length > limit;
    const chunk = cut ? raw.subarray(0, Math.max(0, limit - cursor.received)) : raw;
    if (chunk.length > 0) {
      st.pending.push(chunk);
      st.pendingBytes += chunk.length;
      cursor.received += chunk.length;
    }
    if (!options.overflow && limit !== undefined && cursor.received >= limit) {
      st.reachedLimit = true;
      if (!options.drainAtLimit?.()) {
        st.finished = true;
        this.stopBody();
      }
    }
    if (st.pendingBytes >= MAX_BACKLOG_BYTES) this.body.pause();
    this.kick();
  };

  // Stalls, aborts and cancels end the pump even when the stream itself has gone quiet.
  private readonly onAbort = (): void =>
    this.fail(this.options.attempt.signal.reason ?? new Error('aborted'));
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
