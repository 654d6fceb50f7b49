import type { ClientRequest, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { fromSocketError, TransportCode, TransportError } from './transport-errors.js';
import { noteBodyBytes } from './transport-memory.js';
import { RateWindow } from './rate-window.js';

// Enough to keep the socket busy while the consumer is between reads; pauses the socket beyond.
const BODY_HIGH_WATER_MARK = 256 * 1024;

/** How a response body is watched. */
export interface ResponseBodyOptions {
  url: string;
  /** Body length the head announced (Content-Length); undefined when unknown or bodiless. */
  expectedLength: number | undefined;
  /** No byte for this long while the consumer wants data fails the body (0 = no limit). */
  idleTimeoutMs: number;
  /** Fewer bytes per second than this over an `idleTimeoutMs` window fails the body (0 = no rule). */
  minBytesPerSec?: number;
  signal: AbortSignal | undefined;
}

/**
 * A response body as a plain Readable whose failures are TransportErrors: a connection that
 * closes before Content-Length bytes is a short body, a socket error keeps its code, silence
 * past the idle timeout and the caller's abort each get their own code. Chunks are passed on
 * as node's parser delivers them (no copies). Destroying it mid-body closes the connection;
 * a body read to its end leaves the socket to the keep-alive pool.
 */
export class ResponseBody extends Readable {
  private received = 0;
  private ended = false;
  private socketError: unknown;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly rate: RateWindow;

  constructor(
    private readonly res: IncomingMessage,
    private readonly req: ClientRequest,
    private readonly options: ResponseBodyOptions,
  ) {
    super({ highWaterMark: BODY_HIGH_WATER_MARK });
    this.rate = new RateWindow(options.minBytesPerSec ?? 0, options.idleTimeoutMs, this.onTooSlow);
    // A body may fail before its consumer attaches (between the head and the first read): the
    // error stays in `errored` for the consumer instead of crashing the process, as with
    // node's own IncomingMessage.
    this.on('error', () => undefined);
    res.on('data', this.onData);
    res.once('end', this.onEnd);
    res.on('error', this.onResponseError);
    res.once('close', this.onResponseClose);
    // Attaching 'data' starts the flow on the next tick; nothing is read until we are read from.
    res.pause();
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (options.signal?.aborted) this.onAbort();
  }

  /** Body bytes received so far. */
  get bytesReceived(): number {
    return this.received;
  }

  /** Records an error of the connection (emitted on the request) as the likely cause of a close. */
  noteSocketError(err: unknown): void {
    this.socketError ??= err;
  }

  override _read(): void {
    if (this.ended) return;
    this.armIdleTimer();
    this.rate.start();
    this.res.resume();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.cleanup();
    // A body dropped before its end leaves the connection out of sync: close it.
    if (!this.ended) {
      this.res.destroy();
      this.req.destroy();
    }
    callback(err);
  }

  private readonly onData = (chunk: Buffer): void => {
    if (this.destroyed) return;
    this.received += chunk.length;
    this.idleTimer?.refresh();
    this.rate.add(chunk.length);
    noteBodyBytes(chunk.length);
    if (!this.push(chunk)) {
      this.res.pause();
      this.rate.excuse();
      // A consumer that is not reading is not a silent server.
      this.clearIdleTimer();
    }
  };

  private readonly onEnd = (): void => {
    if (this.destroyed) return;
    const expected = this.options.expectedLength;
    if (expected !== undefined && this.received < expected) {
      this.destroy(this.shortBody());
      return;
    }
    this.ended = true;
    this.cleanup();
    this.push(null);
  };

  private readonly onResponseError = (err: unknown): void => {
    if (!this.destroyed && !this.ended) this.destroy(this.closeError(err));
  };

  private readonly onResponseClose = (): void => {
    if (!this.destroyed && !this.ended) this.destroy(this.closeError(undefined));
  };

  private readonly onAbort = (): void => {
    if (this.destroyed || this.ended) return;
    this.destroy(
      new TransportError(TransportCode.aborted, this.options.url, 'request aborted', {
        cause: this.options.signal?.reason,
        received: this.received,
      }),
    );
  };

  private readonly onIdle = (): void => {
    if (this.destroyed || this.ended) return;
    this.destroy(
      new TransportError(
        TransportCode.bodyTimeout,
        this.options.url,
        `no data for ${this.options.idleTimeoutMs} ms after ${this.received} body bytes`,
        { received: this.received },
      ),
    );
  };

  private readonly onTooSlow = (bytes: number): void => {
    if (this.destroyed || this.ended) return;
    const seconds = this.options.idleTimeoutMs / 1000;
    this.destroy(
      new TransportError(
        TransportCode.tooSlow,
        this.options.url,
        `only ${bytes} bytes in ${seconds} s, below ${this.options.minBytesPerSec ?? 0} bytes/s`,
        { received: this.received },
      ),
    );
  };

  /**
   * Why the body stopped early. Node reports every early close as an 'aborted' ECONNRESET; a
   * real socket error was emitted on the request first, and a clean close before
   * Content-Length bytes is a short body.
   */
  private closeError(err: unknown): TransportError {
    if (this.socketError !== undefined)
      return fromSocketError(this.socketError, this.options.url, this.received);
    if (this.options.expectedLength !== undefined) return this.shortBody(err);
    return new TransportError(
      TransportCode.closed,
      this.options.url,
      `connection closed after ${this.received} body bytes, before the response ended`,
      { cause: err, received: this.received },
    );
  }

  private shortBody(cause?: unknown): TransportError {
    return new TransportError(
      TransportCode.shortBody,
      this.options.url,
      `body ended after ${this.received} of ${this.options.expectedLength ?? '?'} bytes`,
      { cause, received: this.received },
    );
  }

  private armIdleTimer(): void {
    if (this.options.idleTimeoutMs <= 0) return;
    if (this.idleTimer) this.idleTimer.refresh();
    else this.idleTimer = setTimeout(this.onIdle, this.options.idleTimeoutMs);
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private cleanup(): void {
    this.clearIdleTimer();
    this.rate.stop();
    this.options.signal?.removeEventListener('abort', this.onAbort);
  }
}

/**
 * Drops a body we will not use. Up to `limitBytes` are read so that a small body (an error page,
 * a redirect) ends and its keep-alive connection is reused; a longer one is cut off. Never rejects.
 */
export function discardBody(body: Readable, limitBytes = 64 * 1024): Promise<void> {
  return new Promise<void>((resolve) => {
    let seen = 0;
    const finish = (): void => {
      body.off('data', onData);
      resolve();
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > limitBytes) {
        body.destroy();
        finish();
      }
    };
    body.on('error', () => undefined);
    if (body.destroyed || body.readableEnded) return finish();
    body.on('data', onData);
    body.once('end', finish);
    body.once('close', finish);
  });
}
