import { classifyNetworkError, DownloadError } from './errors.js';

/**
 * The lifetime of one HTTP attempt on one connection: an abort signal that fires on the caller's
 * abort, when no byte arrived for `stallTimeoutMs` (a stall, not a total timeout), or when fewer
 * than `minBytesPerSec` bytes per second arrived over a whole `stallTimeoutMs` window once the
 * response began (a trickle is a stall too); and the translation of whatever the attempt threw
 * into a DownloadError.
 */
export class Attempt {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private rateTimer: NodeJS.Timeout | undefined;
  private windowBytes = 0;
  private lastByteAt = 0;
  private deferredRate = false;
  private disposed = false;
  private stalledFlag = false;
  private tooSlowBytes: number | undefined;
  private cancelledFlag = false;

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    private readonly stallTimeoutMs: number,
    private readonly minBytesPerSec = 0,
  ) {
    this.signal = userSignal ? AbortSignal.any([userSignal, this.controller.signal]) : this.controller.signal;
    this.timer = setTimeout(() => {
      this.stalledFlag = true;
      this.controller.abort(new Error(`no data for ${stallTimeoutMs} ms`));
    }, stallTimeoutMs);
  }

  /** The response head or `bytes` of body arrived: push the stall deadline back, count the rate. */
  touch(bytes = 0): void {
    if (this.disposed) return;
    this.timer.refresh();
    this.windowBytes += bytes;
    this.lastByteAt = performance.now();
    // The rate is measured from the response head on: waiting for a connection is not a trickle.
    if (this.rateTimer === undefined && this.minBytesPerSec > 0) {
      this.rateTimer = setInterval(this.checkRate, this.stallTimeoutMs);
    }
  }

  /** Ends the attempt on purpose (segment done, work stolen, another connection failed). */
  cancel(): void {
    this.cancelledFlag = true;
    this.dispose();
    this.controller.abort(new Error('attempt cancelled'));
  }

  /** Stops the stall and rate timers once the attempt is over. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    if (this.rateTimer !== undefined) clearInterval(this.rateTimer);
  }

  get stalled(): boolean {
    return this.stalledFlag || this.tooSlowBytes !== undefined;
  }

  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  /** Maps an error of this attempt to a DownloadError: abort, stall, trickle, or a network failure. */
  translate(err: unknown, url: string): DownloadError {
    if (this.userSignal?.aborted) {
      return new DownloadError('DOWNLOAD_ABORTED', url, 'download aborted', { cause: err });
    }
    if (this.tooSlowBytes !== undefined) {
      const seconds = this.stallTimeoutMs / 1000;
      return new DownloadError(
        'DOWNLOAD_TOO_SLOW',
        url,
        `only ${this.tooSlowBytes} bytes in ${seconds} s, below min_rate ${this.minBytesPerSec} bytes/s`,
        {
          transient: true,
          cause: err,
          hint: 'the server or the network is too slow; lower min_rate to accept it',
        },
      );
    }
    if (this.stalledFlag) {
      return new DownloadError('DOWNLOAD_STALLED', url, `no data received for ${this.stallTimeoutMs} ms`, {
        transient: true,
        cause: err,
      });
    }
    return classifyNetworkError(err, url);
  }

  private readonly checkRate = (): void => {
    const received = this.windowBytes;
    this.windowBytes = 0;
    if (received >= (this.minBytesPerSec * this.stallTimeoutMs) / 1000) {
      this.deferredRate = false;
      return;
    }
    // A connection that went silent is a plain stall: the stall timer fires within half a window
    // and says so more precisely than a rate would. Deferred once only, so a trickle whose gaps
    // happen to line up with the checks is still caught at the next one.
    if (!this.deferredRate && performance.now() - this.lastByteAt >= this.stallTimeoutMs / 2) {
      this.deferredRate = true;
      return;
    }
    this.tooSlowBytes = received;
    this.dispose();
    this.controller.abort(new Error(`${received} bytes in ${this.stallTimeoutMs} ms`));
  };
}
