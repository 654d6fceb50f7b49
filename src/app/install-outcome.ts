/**
 * The part of `update` that fetches bytes: download, verify and install one resolved release,
 * record it in state, and turn what happened into the app's outcome. update.ts imports it only
 * when an app needs bytes, so a run in which every app is current loads no download, verification,
 * SquashFS or desktop-writing code.
 */
import type { AppSettings } from '../config/types.js';
import type { LockEntry } from '../config/lock-file.js';
import { toKeeperError } from '../core/errors.js';
import type { DesktopPlacement } from '../install/desktop-integration.js';
import type { Resolution } from '../sources/index.js';
import { clearIntent } from '../state/intent.js';
import type { AppState } from '../state/types.js';
import { ProvenanceRateLimited } from '../trust/provenance/errors.js';
import type { AppClock } from './app-clock.js';
import { releaseRun } from './app-run.js';
import { errorInfo } from './error-info.js';
import { installApp } from './install-app.js';
import { lockMismatch } from './locked-step.js';
import { linkAndIntegrate } from './place-and-integrate.js';
import { stoppedOutcome, type AppOutcome, type DesktopOutcome } from './outcome.js';
import { recordFailure } from './record.js';
import type { Run } from './run.js';

/** The outcome's view of where the desktop entry went. */
function desktopOutcome(p: DesktopPlacement): DesktopOutcome {
  return {
    id: p.id,
    file: p.file,
    upstream_id: p.upstreamId,
    ...(p.fallbackReason ? { fallback_reason: p.fallbackReason } : {}),
    ...(p.skipped ? { skipped: p.skipped } : {}),
  };
}

/** One app whose release `r` is to be installed, and what the run gives it. */
export interface InstallJob {
  name: string;
  settings: AppSettings;
  state: AppState | undefined;
  r: Resolution;
  clock: AppClock;
  /** The outcome so far (from/to version, URL); the result extends it. */
  base: AppOutcome;
  /** `--locked`: a digest or size that differs is LOCK_MISMATCH. */
  lockEntry: LockEntry | undefined;
  /** When the app was picked up (ISO), for a failure record. */
  now: string;
  /** The run's download slots. */
  downloads: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Saves state (serialised by the caller). */
  save: () => Promise<void>;
}

/**
 * Downloads, verifies and installs `job.r`, records it in state and returns the outcome; a failure
 * is recorded and returned as a failed (or stopped) outcome, never thrown.
 */
export async function installOutcome(run: Run, job: InstallJob): Promise<AppOutcome> {
  const { name, settings, state, r, clock, base, lockEntry } = job;
  const strategy = settings.strategy.strategy;
  const fromVersion = state?.installed?.version ?? null;
  try {
    const result = await job.downloads(() =>
      clock.phase((timed) => installApp(releaseRun(timed, settings, state, r))),
    );
    const done = run.ctx.now().toISOString();
    run.store.updateApp(name, strategy, (s) => ({
      ...s,
      strategy,
      installed: result.installed,
      previous: result.previous ? { ...result.previous, integration: s.integration } : s.previous,
      integration: result.integration,
      symlink: result.symlink,
      signature: result.signature,
      hold: false,
      removedAt: undefined,
      lastCheck: done,
      lastUpdate: done,
      lastError: undefined,
      latest: { version: r.version, identity: r.identity, checkedAt: done },
      releaseAssets: result.releaseAssets ?? s.releaseAssets,
    }));
    await job.save();
    await clearIntent(run.ctx.paths.stateDir, name);
    return {
      ...base,
      status: 'updated',
      to_version: result.installed.version,
      path: result.installed.file,
      warnings: r.viaProxy
        ? [
            ...result.warnings,
            `release metadata and its digest came through proxy ${r.viaProxy}; the file is the hub's own download, but the digest is not proof of authenticity`,
          ]
        : result.warnings,
      method: result.method,
      ...(result.connections !== undefined ? { connections: result.connections } : {}),
      bytes_downloaded: result.bytesDownloaded,
      bytes_reused: result.bytesReused,
      ...(result.desktop ? { desktop: desktopOutcome(result.desktop) } : {}),
    };
  } catch (err) {
    if (err instanceof ProvenanceRateLimited) {
      return { ...base, status: 'rate_limited', retry_at: err.retryAt.toISOString(), reason: err.message };
    }
    // What the failed or interrupted transfer really cost is counted too.
    const spent = run.bytesByApp.get(name);
    const bytes = spent ? { bytes_downloaded: spent } : {};
    if (run.offline.noteFailure(err) || run.signal.aborted) {
      return { ...stoppedOutcome(run.offline.offline, name, fromVersion, state?.installed?.file), ...bytes };
    }
    const failure = toKeeperError(err);
    const e =
      lockEntry && (failure.code === 'VERIFY_DIGEST' || failure.code === 'VERIFY_SIZE')
        ? lockMismatch(name, lockEntry, failure)
        : failure;
    recordFailure(run.store, name, strategy, job.now, e, { version: r.version, identity: r.identity });
    return {
      ...base,
      status: 'failed',
      to_version: r.version,
      path: state?.installed?.file ?? null,
      error: errorInfo(e),
      ...bytes,
    };
  }
}

/** Points the symlink and desktop entry of a recovered install at its file (see recoverInstall). */
export { linkAndIntegrate };
