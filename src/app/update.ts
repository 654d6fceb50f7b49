import type { AppEntry } from '../config/workspace.js';
import { AppClock } from './app-clock.js';
import { appRun } from './app-run.js';
import { integrateTarget, refreshLaunchFixes } from './launch-refresh.js';
import { managedStorageDirs } from './managed-dirs.js';
import type { AppOutcome } from './outcome.js';
import { cooldownStep, type Deferral } from './cooldown-step.js';
import {
  deferredOutcome,
  releaseOutcome,
  settleResolve,
  startTurn,
  type AppTurn,
  type Found,
} from './app-turn.js';
import { createSemaphore, mapPool } from './pool.js';
import { recordSeen } from './record.js';
import { hasIntents } from '../state/intent.js';
import type { resolveStep } from './resolve-step.js';
import type { installOutcome } from './install-outcome.js';
import { LIMITS, type Run } from './run.js';
import type { LockFile } from '../config/lock-file.js';
import { lockedSettings, lockedStep } from './locked-step.js';
import { compareNames } from '../core/compare-names.js';

/** Flags of `update`. */
export interface UpdateOptions {
  force: boolean;
  dryRun: boolean;
  /** Apps named on the command line: a removed app is installed again only when named. */
  named?: readonly string[] | undefined;
  /** `--locked`: install exactly these entries; no release lookup, no cooldown. */
  locked?: LockFile | undefined;
}

/** What every app of one `update` shares: its flags, download slots, serialised saves, loaded steps. */
interface UpdateWalk {
  run: Run;
  opts: UpdateOptions;
  downloads: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Saves state after the saves before it (concurrent apps finish at any time); none in a dry run. */
  save: () => Promise<void>;
  /** The release lookup; undefined under `--locked`, which reads the lock file instead. */
  resolve: typeof resolveStep | undefined;
  /** The install path, loaded when the first app needs bytes. */
  installer: () => Promise<typeof installOutcome>;
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
  let saving: Promise<void> = Promise.resolve();
  if (!opts.dryRun) await recoverInterrupted(run, entries);
  // The release lookup (sources, HTTP stack) and the install path (download, verification,
  // SquashFS, desktop files) are loaded only when a run needs them: `update --locked` with every
  // app at its locked digest needs neither.
  let installer: Promise<typeof installOutcome> | undefined;
  const walk: UpdateWalk = {
    run,
    opts,
    downloads: createSemaphore(LIMITS.downloadTotal),
    save: () => {
      saving = saving.then(() => (opts.dryRun ? undefined : run.store.save()));
      return saving;
    },
    resolve: opts.locked ? undefined : (await import('./resolve-step.js')).resolveStep,
    installer: () => (installer ??= import('./install-outcome.js').then((m) => m.installOutcome)),
  };
  const outcomes = await mapPool(entries, LIMITS.resolveTotal, (entry) => updateApp(walk, entry));
  await saving;
  return [...outcomes].sort((a, b) => compareNames(a.name, b.name));
}

/** One app's walk: the gate, resolve (or the lock), then cooldown, up to date, dry run or install. */
async function updateApp(walk: UpdateWalk, entry: AppEntry): Promise<AppOutcome> {
  const { run, opts } = walk;
  const started = startTurn(run, entry, {
    named: opts.named ?? [],
    skipHeld: !opts.force,
    stoppedAtFile: true,
  });
  if ('outcome' in started) return started.outcome;
  const lockEntry = opts.locked?.apps[entry.name];
  const turn = lockEntry
    ? { ...started.turn, settings: lockedSettings(started.turn.settings, lockEntry) }
    : started.turn;
  const now = run.ctx.now().toISOString();
  const clock = new AppClock(run, turn.settings);
  const resolve = walk.resolve;
  const step = resolve
    ? await clock.phase((r) => resolve(turn.settings, r, { force: opts.force, ignoreWindows: opts.force }))
    : await lockedStep(turn.name, lockEntry, turn.state);
  const settled = settleResolve(run, turn, step, clock, { now, record: !opts.dryRun });
  if ('outcome' in settled) return settled.outcome;
  const { found } = settled;
  const base = releaseOutcome(turn, found.resolution, 'up_to_date', found.resolution.version);
  // --force takes a release the cooldown holds back, as it takes a held app; a locked release
  // went through the cooldown when it was locked.
  const deferral =
    found.needsUpdate && !opts.force && !opts.locked
      ? cooldownStep(run, turn.settings, found.resolution)
      : undefined;
  if (deferral) return deferUpdate(walk, turn, found, base, deferral, now);
  if (!found.needsUpdate && !opts.force) return keepInstalled(walk, turn, found, base, now);
  if (opts.dryRun) return wouldDownload(base, found);
  const install = await walk.installer();
  return install(run, {
    name: turn.name,
    settings: turn.settings,
    state: turn.state,
    r: found.resolution,
    clock,
    base,
    lockEntry,
    now,
    downloads: walk.downloads,
    save: walk.save,
  });
}

/** A release the cooldown holds back: recorded as seen, the installed file stays. */
async function deferUpdate(
  walk: UpdateWalk,
  turn: AppTurn,
  found: Found,
  base: AppOutcome,
  deferral: Deferral,
  now: string,
): Promise<AppOutcome> {
  if (!walk.opts.dryRun) {
    const r = found.resolution;
    recordSeen(walk.run.store, turn.name, turn.settings.strategy.strategy, now, {
      version: r.version,
      identity: r.identity,
    });
    await walk.save();
  }
  return deferredOutcome(turn, base, deferral);
}

/** An app already at the release: recorded as seen, its launch fixes refreshed for this host. */
async function keepInstalled(
  walk: UpdateWalk,
  turn: AppTurn,
  found: Found,
  base: AppOutcome,
  now: string,
): Promise<AppOutcome> {
  const { run } = walk;
  const { state, settings } = turn;
  const strategy = settings.strategy.strategy;
  // Direct recipes learn their real version from the file; when nothing changed, show that one.
  const version = state?.installed?.version ?? found.resolution.version;
  const path = state?.installed?.file ?? null;
  if (walk.opts.dryRun) return { ...base, to_version: version, path };
  recordSeen(run.store, turn.name, strategy, now, { version, identity: found.resolution.identity });
  const refreshed = state?.installed
    ? await refreshLaunchFixes(
        settings,
        integrateTarget(appRun(run, settings, state), state.installed.file, state.symlink),
      )
    : undefined;
  if (refreshed) {
    run.store.updateApp(turn.name, strategy, (s) => ({ ...s, integration: refreshed.record }));
    await walk.save();
  }
  return { ...base, to_version: version, path, warnings: refreshed?.warnings ?? [] };
}

/** A dry run's app that has a release to install: skipped, saying why it would download. */
function wouldDownload(base: AppOutcome, found: Found): AppOutcome {
  return {
    ...base,
    status: 'skipped',
    skip: 'dry_run',
    reason: `dry run: would download (${found.reason})`,
    because: found.reason,
  };
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
