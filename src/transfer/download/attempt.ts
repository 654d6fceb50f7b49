import { RateWindow } from '../../http/rate-window.js';
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
  private readonly rate: RateWindow;
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
    this.rate = new RateWindow(minBytesPerSec, stallTimeoutMs, (received) => {
      this.tooSlowBytes = received;
      this.dispose();
      this.controller.abort(new Error(`${received} bytes in ${stallTimeoutMs} ms`));
    });
  }

  /** The response head or `bytes` of body arrived: push the stall deadline back, count the rate. */
  touch(bytes = 0): void {
    if (this.disposed) return;
    this.timer.refresh();
    this.rate.add(bytes);
    // The rate is measured from the response head on: waiting for a connection is not a trickle.
    this.rate.start();
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
    this.rate.stop();
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
}
