import type { Context } from '../context/context.js';
import { ExitCode, KeeperError } from '../core/errors.js';
import { acquireLock } from '../state/lock.js';

/** The exit code of a run whose signal was aborted by Ctrl-C or SIGTERM, or undefined. */
export function interruptionExitCode(signal: AbortSignal): number | undefined {
  if (!signal.aborted) return undefined;
  const reason: unknown = signal.reason;
  return reason instanceof KeeperError ? reason.exitCode : ExitCode.interrupted;
}

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
      controller.abort(
        new KeeperError('INTERRUPTED', `interrupted by ${sig}`, {
          exitCode: sig === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated,
        }),
      );
      return;
    }
    lock.releaseSync();
    process.exit(sig === 'SIGINT' ? ExitCode.interrupted : ExitCode.terminated);
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
