import type { Context } from '../core/context.js';
import { acquireLock } from '../state/lock.js';

/**
 * Runs a state-writing command under the lock. Ctrl-C or SIGTERM aborts the work through the
 * signal (downloads stop and delete their temp files); a second signal exits at once. The lock is
 * released in every case.
 */
export async function withLock<T>(
  ctx: Context,
  command: string,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const lock = await acquireLock(ctx.paths.lockFile, command);
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    signals++;
    if (signals === 1) {
      ctx.emit({
        type: 'warning',
        code: 'INTERRUPTED',
        message: `${sig}: stopping; installed apps stay as they were`,
      });
      controller.abort(new Error(`interrupted by ${sig}`));
      return;
    }
    lock.releaseSync();
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  const onExit = (): void => lock.releaseSync();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  try {
    return await fn(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
    await lock.release();
  }
}
