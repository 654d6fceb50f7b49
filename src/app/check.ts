import type { AppEntry } from '../config/workspace.js';
import { LIMITS, type Run } from './run.js';
import { mapPool } from './pool.js';
import type { AppOutcome } from './outcome.js';
import { deferredOutcome, releaseOutcome, settleResolve, startTurn } from './app-turn.js';
import { AppClock } from './app-clock.js';
import { cooldownStep } from './cooldown-step.js';
import { resolveStep } from './resolve-step.js';
import { recordSeen } from './record.js';
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
  const outcomes = await mapPool(entries, LIMITS.resolveTotal, (entry) =>
    checkApp(run, entry, { named, force: opts.force, now }),
  );
  return [...outcomes].sort((a, b) => compareNames(a.name, b.name));
}

/** One app: the gate `update` uses (a held app is checked), resolve, then the cooldown. */
async function checkApp(
  run: Run,
  entry: AppEntry,
  opts: { named: readonly string[]; force: boolean | undefined; now: string },
): Promise<AppOutcome> {
  const started = startTurn(run, entry, { named: opts.named, skipHeld: false, stoppedAtFile: false });
  if ('outcome' in started) return started.outcome;
  const { turn } = started;
  const clock = new AppClock(run, turn.settings);
  const step = await clock.phase((r) => resolveStep(turn.settings, r, { ignoreWindows: opts.force }));
  const settled = settleResolve(run, turn, step, clock, { now: opts.now, record: true });
  if ('outcome' in settled) return settled.outcome;
  const { resolution: r, needsUpdate, reason } = settled.found;
  // Direct recipes learn their real version from the file; when nothing changed, show that one.
  const latestVersion = needsUpdate ? r.version : (turn.fromVersion ?? r.version);
  recordSeen(run.store, turn.name, turn.settings.strategy.strategy, opts.now, {
    version: latestVersion,
    identity: r.identity,
  });
  const base: AppOutcome = {
    ...releaseOutcome(turn, r, needsUpdate ? 'update_available' : 'up_to_date', latestVersion),
    path: turn.state?.installed?.file ?? null,
    ...(turn.state?.hold ? { held: true } : {}),
  };
  const deferral = needsUpdate ? cooldownStep(run, turn.settings, r) : undefined;
  return deferral ? deferredOutcome(turn, base, deferral) : { ...base, reason };
}
