/**
 * `check --locked`: how each installed app stands against the lock file, apart from what is newer
 * upstream (which `check` reports as always). Reads state only; sends nothing.
 */
import type { LockFile } from '../config/lock-file.js';
import type { AppState } from '../state/types.js';

/** One app against its lock entry. */
export interface LockDrift {
  name: string;
  /** at_lock: the installed file is the locked one; drift: it is not (or nothing is installed); missing: no entry. */
  status: 'at_lock' | 'drift' | 'missing';
  locked_version: string | null;
  installed_version: string | null;
}

/** Compares what state says is installed with the lock, app by app (sorted by name). */
export function lockDrift(
  names: readonly string[],
  lock: LockFile,
  stateOf: (name: string) => AppState | undefined,
): LockDrift[] {
  return [...names].sort().map((name) => {
    const entry = lock.apps[name];
    const installed = stateOf(name)?.installed;
    const installedVersion = installed?.version ?? null;
    if (!entry) return { name, status: 'missing', locked_version: null, installed_version: installedVersion };
    // An unzipped asset's file has its own digest: the release's identity and URL name it.
    const same =
      installed !== undefined &&
      (entry.asset.toLowerCase().endsWith('.zip')
        ? installed.identity === entry.identity && installed.url === entry.url
        : installed.sha256 === entry.sha256);
    return {
      name,
      status: same ? 'at_lock' : 'drift',
      locked_version: entry.version,
      installed_version: installedVersion,
    };
  });
}
