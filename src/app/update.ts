import type { AppEntry } from '../config/workspace.js';
import { AppClock } from './app-clock.js';
import { errorInfo } from './error-info.js';
import { appRun } from './app-run.js';
import { integrateTarget, refreshLaunchFixes } from './launch-refresh.js';
import { managedStorageDirs } from './managed-dirs.js';
import { outcomeFor, stoppedOutcome, removedReason, type AppOutcome } from './outcome.js';
import { cooldownStep } from './cooldown-step.js';
import { createSemaphore, mapPool } from './pool.js';
import { recordFailure, recordSeen } from './record.js';
import { hasIntents } from '../state/intent.js';
import type { ResolveStep } from './resolve-step.js';
import type { installOutcome } from './install-outcome.js';
import { LIMITS, type Run } from './run.js';
import type { LockFile } from '../config/lock-file.js';
import { lockedSettings, lockedStep } from './locked-step.js';
import { compareNames } from '../core/compare-names.js';

function stopped(run: Run, name: string, from: string | null, path: string | undefined): AppOutcome {
  return stoppedOutcome(run.offline.offline, name, from, path);
}

/** Flags of `update`. */
export interface UpdateOptions {
  force: boolean;
  dryRun: boolean;
  /** Apps named on the command line: a removed app is installed again only when named. */
  named?: readonly string[] | undefined;
  /** `--locked`: install exactly these entries; no release lookup, no cooldown. */
  locked?: LockFile | undefined;
}

/**
 * `update`: resolve every selected app, then download, verify and install those that changed.
 * State is saved after each installed app, so an interrupted run keeps what finished.
 */
export async function updateApps(
  run: Run,
  entries: readonly AppEntry[],
  opts: UpdateOptions,
): Promise<AppOutcome[]> {
  const downloads = createSemaphore(LIMITS.downloadTotal);
  let saving: Promise<void> = Promise.resolve();
  const save = (): Promise<void> => {
    // Serialise writes: concurrent apps finish at any time.
    saving = saving.then(() => (opts.dryRun ? undefined : run.store.save()));
    return saving;
  };
  if (!opts.dryRun) await recoverInterrupted(run, entries);
  // The release lookup (sources, HTTP stack) and the install path (download, verification,
  // SquashFS, desktop files) are loaded only when a run needs them: `update --locked` with every
  // app at its locked digest needs neither.
  const resolveStep = opts.locked ? undefined : (await import('./resolve-step.js')).resolveStep;
  let installer: Promise<{ installOutcome: typeof installOutcome }> | undefined;
  const outcomes = await mapPool(entries, LIMITS.resolveTotal, async (entry): Promise<AppOutcome> => {
    const state = run.store.app(entry.name);
    const fromVersion = state?.installed?.version ?? null;
    if (!entry.ok) return { ...outcomeFor(entry.name, 'failed', fromVersion), error: errorInfo(entry.error) };
    const lockEntry = opts.locked?.apps[entry.name];
    const settings = lockEntry ? lockedSettings(entry.settings, lockEntry) : entry.settings;
    if (settings.ignore)
      return { ...outcomeFor(entry.name, 'skipped', fromVersion), skip: 'ignored', reason: 'ignored' };
    if (state?.hold && !opts.force) {
      return {
        ...outcomeFor(entry.name, 'skipped', fromVersion),
        path: state.installed?.file ?? null,
        skip: 'held',
        reason: 'held (rollback); run `update --force` or `unhold` to resume updates',
      };
    }
    if (state?.removedAt && !opts.named?.includes(entry.name)) {
      return {
        ...outcomeFor(entry.name, 'skipped', fromVersion),
        skip: 'removed',
        reason: removedReason(entry.name),
      };
    }
    if (run.signal.aborted) return stopped(run, entry.name, fromVersion, state?.installed?.file);
    const strategy = settings.strategy.strategy;
    const now = run.ctx.now().toISOString();
    const clock = new AppClock(run, settings);
    const step: ResolveStep = resolveStep
      ? await clock.phase((r) => resolveStep(settings, r, { force: opts.force, ignoreWindows: opts.force }))
      : await lockedStep(entry.name, lockEntry, state);
    // Decided before anything is recorded: an offline machine leaves no failure in state.
    if (step.kind === 'failed' && (run.offline.noteFailure(step.error) || run.signal.aborted)) {
      return stopped(run, entry.name, fromVersion, state?.installed?.file);
    }
    if (step.kind === 'failed' && clock.expired) step.error = clock.timeoutError(step.error);
    if (step.kind === 'rate_limited') {
      return {
        ...outcomeFor(entry.name, 'rate_limited', fromVersion),
        retry_at: step.retryAt.toISOString(),
        reason: step.message,
      };
    }
    if (step.kind === 'failed') {
      if (!opts.dryRun) recordFailure(run.store, entry.name, strategy, now, step.error);
      return { ...outcomeFor(entry.name, 'failed', fromVersion), error: errorInfo(step.error) };
    }
    const r = step.resolution;
    const base = {
      ...outcomeFor(entry.name, 'up_to_date', fromVersion),
      to_version: r.version,
      url: r.url,
      ...(r.viaProxy !== undefined ? { via_proxy: r.viaProxy } : {}),
    };
    // --force takes a release the cooldown holds back, as it takes a held app; a locked release
    // went through the cooldown when it was locked.
    const deferral =
      step.needsUpdate && !opts.force && !opts.locked ? cooldownStep(run, settings, r) : undefined;
    if (deferral) {
      if (!opts.dryRun) {
        recordSeen(run.store, entry.name, strategy, now, { version: r.version, identity: r.identity });
        await save();
      }
      return {
        ...base,
        status: 'deferred',
        path: state?.installed?.file ?? null,
        eligible_at: deferral.eligibleAt,
        reason: deferral.reason,
      };
    }
    if (!step.needsUpdate && !opts.force) {
      // Direct recipes learn their real version from the file; when nothing changed, show that one.
      const version = state?.installed?.version ?? r.version;
      if (opts.dryRun) return { ...base, to_version: version, path: state?.installed?.file ?? null };
      recordSeen(run.store, entry.name, strategy, now, { version, identity: r.identity });
      const refreshed = state?.installed
        ? await refreshLaunchFixes(
            settings,
            integrateTarget(appRun(run, settings, state), state.installed.file, state.symlink),
          )
        : undefined;
      if (refreshed) {
        run.store.updateApp(entry.name, strategy, (s) => ({ ...s, integration: refreshed.record }));
        await save();
      }
      return {
        ...base,
        to_version: version,
        path: state?.installed?.file ?? null,
        warnings: refreshed?.warnings ?? [],
      };
    }
    if (opts.dryRun) {
      return {
        ...base,
        status: 'skipped',
        skip: 'dry_run',
        reason: `dry run: would download (${step.reason})`,
        because: step.reason,
      };
    }
    installer ??= import('./install-outcome.js');
    const { installOutcome } = await installer;
    return installOutcome(run, {
      name: entry.name,
      settings,
      state,
      r,
      clock,
      base,
      lockEntry,
      now,
      downloads,
      save,
    });
  });
  await saving;
  return [...outcomes].sort((a, b) => compareNames(a.name, b.name));
}

/**
 * Finishes installs a killed run left between the committing rename and the state save (one at a
 * time: recovery saves state), and points their symlink and desktop entry at the new file.
 */
async function recoverInterrupted(run: Run, entries: readonly AppEntry[]): Promise<void> {
  // Nearly every run finds no intent: then neither recovery nor integration code is loaded.
  if (!hasIntents(run.ctx.paths.stateDir)) return;
  const { recoverInstall } = await import('./recover-install.js');
  const { linkAndIntegrate } = await import('./place-and-integrate.js');
  const managed = managedStorageDirs(run.ws);
  for (const entry of entries) {
    if (!entry.ok) continue;
    const { settings } = entry;
    const strategy = settings.strategy.strategy;
    const r = await recoverInstall(run.store, run.ctx.paths.stateDir, entry.name, strategy, managed);
    if (r !== 'committed') continue;
    const state = run.store.app(entry.name);
    const file = state?.installed?.file;
    if (!file) continue;
    const linked = await linkAndIntegrate(appRun(run, settings, state), file);
    run.store.updateApp(entry.name, strategy, (s) => ({
      ...s,
      symlink: linked.symlink,
      integration: linked.integration,
    }));
    await run.store.save();
    run.ctx.emit({
      type: 'info',
      app: entry.name,
      message: `finished the install of ${file} that an interrupted run left unrecorded`,
    });
  }
}
