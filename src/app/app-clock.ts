import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import type { Run } from './run.js';

/**
 * The `app_timeout` budget of one app. Work runs in phases (resolve, then download and install),
 * each with the run's signal plus one that fires when the budget is spent; the time an app waits
 * for a download slot between phases is not charged, since other apps' downloads are not its fault.
 */
export class AppClock {
  private remainingMs: number;
  private expiredFlag = false;

  constructor(
    private readonly run: Run,
    private readonly settings: AppSettings,
  ) {
    this.remainingMs = settings.app_timeout * 1000;
  }

  /** Whether the budget ran out during a phase. */
  get expired(): boolean {
    return this.expiredFlag;
  }

  /** The error an app that ran out of time is reported with. */
  timeoutError(cause?: unknown): KeeperError {
    return new KeeperError(
      'APP_TIMEOUT',
      `the update of ${this.settings.name} took longer than app_timeout (${this.settings.app_timeout} s); stopped`,
      { cause, hint: 'a slow server or a large file: raise app_timeout for this app if it needs more time' },
    );
  }

  /**
   * Runs `fn` with a copy of the run whose signal also fires when the budget runs out. An error
   * thrown after that is reported as APP_TIMEOUT (the original one is its cause).
   */
  async phase<T>(fn: (run: Run) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const started = performance.now();
    const timer = setTimeout(
      () => {
        this.expiredFlag = true;
        controller.abort(this.timeoutError());
      },
      Math.max(0, this.remainingMs),
    );
    try {
      return await fn({ ...this.run, signal: AbortSignal.any([this.run.signal, controller.signal]) });
    } catch (err) {
      if (this.expiredFlag && !this.run.signal.aborted) throw this.timeoutError(err);
      throw err;
    } finally {
      clearTimeout(timer);
      this.remainingMs -= performance.now() - started;
    }
  }
}
