import { classifyNetworkError, DownloadError } from './errors.js';

/**
 * The lifetime of one HTTP attempt on one connection: an abort signal that fires on the caller's
 * abort or when no byte arrived for `stallTimeoutMs` (a stall, not a total timeout), and the
 * translation of whatever the attempt threw into a DownloadError.
 */
export class Attempt {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private stalledFlag = false;
  private cancelledFlag = false;

  constructor(
    private readonly userSignal: AbortSignal | undefined,
    private readonly stallTimeoutMs: number,
  ) {
    this.signal = userSignal ? AbortSignal.any([userSignal, this.controller.signal]) : this.controller.signal;
    this.timer = setTimeout(() => {
      this.stalledFlag = true;
      this.controller.abort(new Error(`no data for ${stallTimeoutMs} ms`));
    }, stallTimeoutMs);
  }

  /** Data arrived: push the stall deadline back. */
  touch(): void {
    this.timer.refresh();
  }

  /** Ends the attempt on purpose (segment done, work stolen, another connection failed). */
  cancel(): void {
    this.cancelledFlag = true;
    clearTimeout(this.timer);
    this.controller.abort(new Error('attempt cancelled'));
  }

  /** Stops the stall timer once the attempt is over. */
  dispose(): void {
    clearTimeout(this.timer);
  }

  get stalled(): boolean {
    return this.stalledFlag;
  }

  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  /** Maps an error of this attempt to a DownloadError: abort, stall, or a network failure. */
  translate(err: unknown, url: string): DownloadError {
    if (this.userSignal?.aborted) {
      return new DownloadError('DOWNLOAD_ABORTED', url, 'download aborted', { cause: err });
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
