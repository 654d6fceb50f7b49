import type { AppEntry } from '../config/workspace.js';
import { LIMITS, type Run } from './run.js';
import { mapPool } from './pool.js';
import { outcomeFor, removedReason, stoppedOutcome, type AppOutcome } from './outcome.js';
import { AppClock } from './app-clock.js';
import { cooldownStep } from './cooldown-step.js';
import { resolveStep } from './resolve-step.js';
import { errorInfo } from './error-info.js';
import { recordFailure, recordSeen } from './record.js';
import { compareNames } from '../core/compare-names.js';

/**
 * `check`: resolves every selected app in parallel (per-host limits) and compares with state.
 * Downloads nothing and never touches installed files; records what it saw in state.
 */
export async function checkApps(
  run: Run,
  entries: readonly AppEntry[],
  named: readonly string[] = [],
  opts: { force?: boolean } = {},
): Promise<AppOutcome[]> {
  const now = run.ctx.now().toISOString();
  const outcomes = await mapPool(entries, LIMITS.resolveTotal, async (entry): Promise<AppOutcome> => {
    const installedVersion = run.store.app(entry.name)?.installed?.version ?? null;
    if (!entry.ok) {
      return { ...outcomeFor(entry.name, 'failed', installedVersion), error: errorInfo(entry.error) };
    }
    const settings = entry.settings;
    if (settings.ignore)
      return { ...outcomeFor(entry.name, 'skipped', installedVersion), skip: 'ignored', reason: 'ignored' };
    if (run.store.app(entry.name)?.removedAt && !named.includes(entry.name)) {
      return {
        ...outcomeFor(entry.name, 'skipped', installedVersion),
        skip: 'removed',
        reason: removedReason(entry.name),
      };
    }
    if (run.signal.aborted)
      return stoppedOutcome(run.offline.offline, entry.name, installedVersion, undefined);
    const clock = new AppClock(run, settings);
    const step = await clock.phase((r) => resolveStep(settings, r, { ignoreWindows: opts.force }));
    // Decided before anything is recorded: an offline machine leaves no failure in state.
    if (step.kind === 'failed' && (run.offline.noteFailure(step.error) || run.signal.aborted)) {
      return stoppedOutcome(run.offline.offline, entry.name, installedVersion, undefined);
    }
    if (step.kind === 'failed' && clock.expired) step.error = clock.timeoutError(step.error);
    const strategy = settings.strategy.strategy;
    if (step.kind === 'rate_limited') {
      return {
        ...outcomeFor(entry.name, 'rate_limited', installedVersion),
        retry_at: step.retryAt.toISOString(),
        reason: step.message,
      };
    }
    if (step.kind === 'failed') {
      recordFailure(run.store, entry.name, strategy, now, step.error);
      return { ...outcomeFor(entry.name, 'failed', installedVersion), error: errorInfo(step.error) };
    }
    const r = step.resolution;
    // Direct recipes learn their real version from the file; when nothing changed, show that one.
    const latestVersion = step.needsUpdate
      ? r.version
      : (run.store.app(entry.name)?.installed?.version ?? r.version);
    recordSeen(run.store, entry.name, strategy, now, { version: latestVersion, identity: r.identity });
    const deferral = step.needsUpdate ? cooldownStep(run, settings, r) : undefined;
    if (deferral) {
      return {
        ...outcomeFor(entry.name, 'deferred', installedVersion),
        to_version: latestVersion,
        path: run.store.app(entry.name)?.installed?.file ?? null,
        url: r.url,
        eligible_at: deferral.eligibleAt,
        reason: deferral.reason,
        ...(run.store.app(entry.name)?.hold ? { held: true } : {}),
        ...(r.viaProxy !== undefined ? { via_proxy: r.viaProxy } : {}),
      };
    }
    return {
      ...outcomeFor(entry.name, step.needsUpdate ? 'update_available' : 'up_to_date', installedVersion),
      to_version: latestVersion,
      path: run.store.app(entry.name)?.installed?.file ?? null,
      url: r.url,
      reason: step.reason,
      ...(run.store.app(entry.name)?.hold ? { held: true } : {}),
      ...(r.viaProxy !== undefined ? { via_proxy: r.viaProxy } : {}),
    };
  });
  return [...outcomes].sort((a, b) => compareNames(a.name, b.name));
}
