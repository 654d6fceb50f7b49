import type { KeeperError } from '../core/errors.js';
import type { StateStore } from '../state/store.js';

/** Records that an app was checked and what its latest version is; clears any earlier error. */
export function recordSeen(
  store: StateStore,
  name: string,
  strategy: string,
  at: string,
  latest: { version: string; identity: string },
): void {
  store.updateApp(name, strategy, (s) => ({
    ...s,
    lastCheck: at,
    lastError: undefined,
    latest: { ...latest, checkedAt: at },
  }));
}

/**
 * Records a failed check or update; the installed version and its record stay as they were. `seen`:
 * the release the run had resolved before it failed (a download or verification failure), so `info`
 * shows it as latest rather than the installed one.
 */
export function recordFailure(
  store: StateStore,
  name: string,
  strategy: string,
  at: string,
  error: KeeperError,
  seen?: { version: string; identity: string },
): void {
  store.updateApp(name, strategy, (s) => ({
    ...s,
    lastCheck: at,
    lastError: { code: error.code, message: error.message, at },
    ...(seen ? { latest: { ...seen, checkedAt: at } } : {}),
  }));
}
