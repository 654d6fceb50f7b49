/**
 * The release cooldown (`min_release_age`): whether a resolved release is old enough to install,
 * and from when it will be. One pure function, shared by `update`, `check` and `lock`, so they can
 * never disagree about which release is eligible.
 */
import type { AppSettings } from '../config/types.js';
import { spanText, timeText } from '../core/time-text.js';
import type { Resolution } from '../sources/index.js';
import type { AppState } from '../state/types.js';

/** What a release's age is counted from. */
export type ReleaseAgeBasis = 'published' | 'last modified' | 'first seen';

/** When this machine first saw a release identity, as state keeps it. */
export interface FirstSeen {
  identity: string;
  at: string;
}

/** The answer of `releaseEligibility`. */
export type ReleaseEligibility =
  | { eligible: true; record?: FirstSeen | undefined; note?: string | undefined }
  | {
      eligible: false;
      eligibleAt: Date;
      releasedAt: Date;
      basis: ReleaseAgeBasis;
      /** A first-seen record state must keep so the wait survives runs (absent: it already holds it). */
      record?: FirstSeen | undefined;
      /** Why a source's release time was not used (verbose output). */
      note?: string | undefined;
    };

// A date longer than this is not one; it is cut before parsing and quoting.
const MAX_TIME_TEXT = 64;

/**
 * Whether `release` may be installed at `now` under the app's `min_release_age`. Its age counts
 * from the release time its source reported; a time that is missing, unparseable or in the future
 * counts from the first time this machine saw the release identity (recorded in state, so the wait
 * never restarts and never ends before `first seen + min age`).
 */
export function releaseEligibility(
  release: Pick<Resolution, 'identity' | 'releasedAt'>,
  settings: Pick<AppSettings, 'min_release_age'>,
  state: Pick<AppState, 'firstSeen'> | undefined,
  now: Date,
): ReleaseEligibility {
  const minAgeMs = (settings.min_release_age ?? 0) * 1000;
  if (minAgeMs <= 0) return { eligible: true };
  const seen = firstSeen(release.identity, state, now);
  const record = seen.recorded ? undefined : { identity: release.identity, at: now.toISOString() };
  let releasedAt = seen.at;
  let basis: ReleaseAgeBasis = 'first seen';
  let note: string | undefined;
  const reported = release.releasedAt;
  if (reported) {
    const raw = reported.at.slice(0, MAX_TIME_TEXT);
    const at = reported.at.length > MAX_TIME_TEXT ? Number.NaN : Date.parse(raw);
    if (Number.isNaN(at)) {
      note = `${reported.what} time "${raw}" is not a date; the cooldown counts from when this release was first seen`;
    } else if (at > now.getTime()) {
      note = `${reported.what} time ${new Date(at).toISOString()} is in the future; the cooldown counts from when this release was first seen`;
    } else {
      releasedAt = new Date(at);
      basis = reported.what;
    }
  }
  const eligibleAt = new Date(releasedAt.getTime() + minAgeMs);
  if (eligibleAt.getTime() <= now.getTime()) return { eligible: true, record, note };
  return { eligible: false, eligibleAt, releasedAt, basis, record, note };
}

/** The human reason of a deferred app: `1.8.0 published 5 h ago, eligible in 2 d 19 h (2026-11-29 10:00 UTC)`. */
export function deferredText(
  version: string,
  e: { eligibleAt: Date; releasedAt: Date; basis: ReleaseAgeBasis },
  now: Date,
): string {
  const age = spanText(now.getTime() - e.releasedAt.getTime());
  const wait = spanText(e.eligibleAt.getTime() - now.getTime());
  return `${version} ${e.basis} ${age} ago, eligible in ${wait} (${timeText(e.eligibleAt)})`;
}

// A record for another identity (an older release), a broken one or one from the future is
// replaced by `now`: the new release has not been seen before.
function firstSeen(
  identity: string,
  state: Pick<AppState, 'firstSeen'> | undefined,
  now: Date,
): { at: Date; recorded: boolean } {
  const kept = state?.firstSeen;
  if (kept?.identity === identity) {
    const at = Date.parse(kept.at);
    if (!Number.isNaN(at) && at <= now.getTime()) return { at: new Date(at), recorded: true };
  }
  return { at: now, recorded: false };
}
