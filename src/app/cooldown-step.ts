import type { AppSettings } from '../config/types.js';
import type { Resolution } from '../sources/index.js';
import { deferredText, releaseEligibility } from './release-eligibility.js';
import type { Run } from './run.js';

/** A release the cooldown holds back: when it becomes eligible and the human reason. */
export interface Deferral {
  eligibleAt: string;
  reason: string;
}

/**
 * Applies `min_release_age` to a release `check` or `update` would install: records when the
 * release was first seen (in memory; the caller's save writes it), says in verbose output why a
 * source's release time was not used, and returns the deferral, or undefined when it may go ahead.
 */
export function cooldownStep(run: Run, settings: AppSettings, resolution: Resolution): Deferral | undefined {
  const now = run.ctx.now();
  const e = releaseEligibility(resolution, settings, run.store.app(settings.name), now);
  if (e.record) {
    const record = e.record;
    run.store.updateApp(settings.name, settings.strategy.strategy, (s) => ({ ...s, firstSeen: record }));
  }
  if (e.note) run.ctx.emit({ type: 'info', app: settings.name, message: e.note });
  if (e.eligible) return undefined;
  return { eligibleAt: e.eligibleAt.toISOString(), reason: deferredText(resolution.version, e, now) };
}
