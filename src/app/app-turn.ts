import type { AppEntry } from '../config/workspace.js';
import type { AppSettings } from '../config/types.js';
import type { Resolution } from '../sources/index.js';
import type { AppState } from '../state/types.js';
import type { AppClock } from './app-clock.js';
import type { Deferral } from './cooldown-step.js';
import { errorInfo } from './error-info.js';
import { outcomeFor, removedReason, stoppedOutcome, type AppOutcome, type AppStatus } from './outcome.js';
import { recordFailure } from './record.js';
import type { ResolveStep } from './resolve-step.js';
import type { Run } from './run.js';

// The steps `check` and `update` share for one app, so both map a skipped, stopped, failed,
// rate-limited or deferred app to the same outcome.

/** One app a `check` or `update` goes on to look up. */
export interface AppTurn {
  name: string;
  settings: AppSettings;
  state: AppState | undefined;
  fromVersion: string | null;
  /** What an interrupted or offline outcome names: `update` the installed file, `check` nothing. */
  stoppedPath: string | undefined;
}

/** How a run treats apps before looking them up. */
export interface TurnRules {
  /** Apps named on the command line: a removed app is looked up only when named. */
  named: readonly string[];
  /** Skip an app held after a rollback (`update` without `--force`). */
  skipHeld: boolean;
  /** Name the installed file in an interrupted or offline outcome. */
  stoppedAtFile: boolean;
}

/** A resolve step that found a release. */
export type Found = Extract<ResolveStep, { kind: 'resolved' }>;

/**
 * The app's turn, or the outcome of an app the run leaves alone: a recipe that did not load,
 * `ignore: true`, held (see `skipHeld`), removed and not named, or the run already stopped.
 */
export function startTurn(
  run: Run,
  entry: AppEntry,
  rules: TurnRules,
): { outcome: AppOutcome } | { turn: AppTurn } {
  const state = run.store.app(entry.name);
  const fromVersion = state?.installed?.version ?? null;
  const skipped = (fields: Partial<AppOutcome>): { outcome: AppOutcome } => ({
    outcome: { ...outcomeFor(entry.name, 'skipped', fromVersion), ...fields },
  });
  if (!entry.ok)
    return { outcome: { ...outcomeFor(entry.name, 'failed', fromVersion), error: errorInfo(entry.error) } };
  if (entry.settings.ignore) return skipped({ skip: 'ignored', reason: 'ignored' });
  if (state?.hold && rules.skipHeld) {
    return skipped({
      path: state.installed?.file ?? null,
      skip: 'held',
      reason: 'held (rollback); run `update --force` or `unhold` to resume updates',
    });
  }
  if (state?.removedAt && !rules.named.includes(entry.name))
    return skipped({ skip: 'removed', reason: removedReason(entry.name) });
  const turn: AppTurn = {
    name: entry.name,
    settings: entry.settings,
    state,
    fromVersion,
    stoppedPath: rules.stoppedAtFile ? state?.installed?.file : undefined,
  };
  if (run.signal.aborted) return { outcome: stoppedTurn(run, turn) };
  return { turn };
}

/** The outcome of an app the run's signal stopped, or that an offline machine could not look up. */
export function stoppedTurn(run: Run, turn: AppTurn): AppOutcome {
  return stoppedOutcome(run.offline.offline, turn.name, turn.fromVersion, turn.stoppedPath);
}

/**
 * The release a resolve step found, or the outcome it ends the app with: stopped (offline or
 * interrupted, decided before anything is recorded, so an offline machine leaves no failure in
 * state), rate-limited, or failed (APP_TIMEOUT when the app's clock ran out; recorded in state
 * when `record`).
 */
export function settleResolve(
  run: Run,
  turn: AppTurn,
  step: ResolveStep,
  clock: AppClock,
  opts: { now: string; record: boolean },
): { outcome: AppOutcome } | { found: Found } {
  if (step.kind === 'resolved') return { found: step };
  if (step.kind === 'rate_limited') {
    return {
      outcome: {
        ...outcomeFor(turn.name, 'rate_limited', turn.fromVersion),
        retry_at: step.retryAt.toISOString(),
        reason: step.message,
      },
    };
  }
  if (run.offline.noteFailure(step.error) || run.signal.aborted) return { outcome: stoppedTurn(run, turn) };
  const error = clock.expired ? clock.timeoutError(step.error) : step.error;
  if (opts.record) recordFailure(run.store, turn.name, turn.settings.strategy.strategy, opts.now, error);
  return { outcome: { ...outcomeFor(turn.name, 'failed', turn.fromVersion), error: errorInfo(error) } };
}

/** The outcome of an app whose release `r` was found: versions, the asset URL, the proxy it came through. */
export function releaseOutcome(
  turn: AppTurn,
  r: Resolution,
  status: AppStatus,
  toVersion: string,
): AppOutcome {
  return {
    ...outcomeFor(turn.name, status, turn.fromVersion),
    to_version: toVersion,
    url: r.url,
    ...(r.viaProxy !== undefined ? { via_proxy: r.viaProxy } : {}),
  };
}

/** `base` deferred by the cooldown: the installed file stays, the release waits until `eligible_at`. */
export function deferredOutcome(turn: AppTurn, base: AppOutcome, deferral: Deferral): AppOutcome {
  return {
    ...base,
    status: 'deferred',
    path: turn.state?.installed?.file ?? null,
    eligible_at: deferral.eligibleAt,
    reason: deferral.reason,
  };
}
