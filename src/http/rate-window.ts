/**
 * The minimum-rate rule shared by the downloader and the transport: from `start()` on, every
 * window of `windowMs` must bring `minBytesPerSec × windowMs / 1000` bytes, else `onTooSlow` is
 * called once with what the window brought. A connection that has gone silent for half a window
 * is left to the caller's own stall timer, once, so its error says "no data" rather than "too slow".
 */
export class RateWindow {
  private timer: NodeJS.Timeout | undefined;
  private bytes = 0;
  private lastByteAt = 0;
  private deferred = false;
  private excused = false;
  private stopped = false;

  constructor(
    private readonly minBytesPerSec: number,
    private readonly windowMs: number,
    private readonly onTooSlow: (bytes: number) => void,
  ) {}

  /** Starts judging windows (idempotent); does nothing when the rule is off. */
  start(): void {
    if (this.timer !== undefined || this.stopped || this.minBytesPerSec <= 0 || this.windowMs <= 0) return;
    this.lastByteAt = performance.now();
    this.timer = setInterval(this.check, this.windowMs);
  }

  /** Counts `bytes` that arrived now. */
  add(bytes: number): void {
    this.bytes += bytes;
    if (bytes > 0) this.lastByteAt = performance.now();
  }

  /** The consumer stopped reading during this window: a slow reader is not a slow server. */
  excuse(): void {
    this.excused = true;
  }

  /** Stops for good. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private readonly check = (): void => {
    const received = this.bytes;
    const excused = this.excused;
    this.bytes = 0;
    this.excused = false;
    if (excused || received >= (this.minBytesPerSec * this.windowMs) / 1000) {
      this.deferred = false;
      return;
    }
    if (!this.deferred && performance.now() - this.lastByteAt >= this.windowMs / 2) {
      this.deferred = true;
      return;
    }
    this.stop();
    this.onTooSlow(received);
  };
}
