import type { AppSettings } from '../config/types.js';
import type { Context } from '../context/context.js';
import type { Resolution } from '../sources/types.js';
import type { AppState } from '../state/types.js';
import type { Run } from './run.js';

/**
 * One app's share of a run, passed as one value instead of threading settings, state, context and
 * signal through every step: the run it belongs to, the app's settings, and its state entry as it
 * was when this work began (undefined for an app state does not know yet).
 */
export interface AppRun {
  readonly run: Run;
  readonly ctx: Context;
  readonly settings: AppSettings;
  readonly state: AppState | undefined;
  /** The run's signal, plus the app's own `app_timeout` during an update phase. */
  readonly signal: AbortSignal;
}

/** An app on its way to installing a resolved release. */
export interface ReleaseRun extends AppRun {
  readonly release: Resolution;
}

/** The app's share of `run` (whose signal may be a phase's). */
export function appRun(run: Run, settings: AppSettings, state: AppState | undefined): AppRun {
  return { run, ctx: run.ctx, settings, state, signal: run.signal };
}

/** The app's share of `run`, installing `release`. */
export function releaseRun(
  run: Run,
  settings: AppSettings,
  state: AppState | undefined,
  release: Resolution,
): ReleaseRun {
  return { ...appRun(run, settings, state), release };
}
