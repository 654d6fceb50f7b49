import { setTimeout as delay } from 'node:timers/promises';

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
/** An attempt that moved at least this many bytes resets the failures-in-a-row count. */
export const PROGRESS_RESETS_RETRIES = 256 * 1024;

/** Delay before retry number `failures` (1-based): the server's Retry-After, else exponential with jitter. */
export function backoffMs(failures: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const exp = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, failures - 1));
  // Jitter keeps parallel connections from retrying in lockstep.
  return Math.round(exp * (0.8 + Math.random() * 0.4));
}

/** Waits `ms`, rejecting early when `signal` aborts. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, signal ? { signal } : undefined);
}
