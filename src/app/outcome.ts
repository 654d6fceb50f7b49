import type { ConfigIssue } from '../core/errors.js';
/**
 * Status of one app after a run (JSON spelling; `update_available` only from check). `interrupted`:
 * Ctrl-C or SIGTERM stopped the app before it finished; what was installed stays as it was.
 * `deferred`: the new release is younger than `min_release_age` (see `eligible_at`). `offline`: the
 * machine had no network, so the app was not checked; nothing about it changed.
 */
export type AppStatus =
  | 'updated'
  | 'up_to_date'
  | 'update_available'
  | 'deferred'
  | 'rate_limited'
  | 'failed'
  | 'skipped'
  | 'interrupted'
  | 'offline';

/** Why an app was skipped: `ignore: true`, held after a rollback, removed, or a dry run that would download. */
export type SkipCode = 'ignored' | 'held' | 'removed' | 'dry_run';

/** Where an app's desktop entry went, or why there is none (JSON `desktop` of update). */
export interface DesktopOutcome {
  /** Desktop id written (file name without `.desktop`); null when no entry was installed. */
  id: string | null;
  file: string | null;
  /** The id the AppImage ships, when it is a valid one. */
  upstream_id: string | null;
  /** Why `appimage-keeper-<app>` was used instead of the upstream id. */
  fallback_reason?: string | undefined;
  /** Why no entry was installed. */
  skipped?: string | undefined;
}

/** What happened to one app in one run. */
export interface AppOutcome {
  name: string;
  status: AppStatus;
  from_version: string | null;
  to_version: string | null;
  path: string | null;
  /** `issues`: a recipe's problems, one per place, as `validate` lists them. */
  error: { code: string; message: string; hint?: string | undefined; issues?: ConfigIssue[] } | null;
  retry_at: string | null;
  /** `deferred`: ISO time the release becomes old enough to install. */
  eligible_at?: string | undefined;
  /**
   * Why a skipped app was skipped, in words (JSON `reason`; rate-limited and interrupted apps too);
   * why a deferred one waits.
   */
  reason?: string | undefined;
  /** Why a skipped app was skipped, for code to branch on (not in the JSON, which has `reason`). */
  skip?: SkipCode | undefined;
  warnings: string[];
  /** Bytes transferred for the AppImage (and reused from the old file by a delta update). */
  bytes_downloaded?: number | undefined;
  bytes_reused?: number | undefined;
  /** How the file was fetched: plain, segmented, zsync, blockmap. */
  method?: string | undefined;
  /** `check`: the app is held after a rollback, so `update` leaves it alone. */
  held?: boolean | undefined;
  /** Parallel connections of a segmented full download. */
  connections?: number | undefined;
  /** Why a dry run would download (`new version`, `installed file is missing`); not in the JSON. */
  because?: string | undefined;
  /** The asset URL (dry-run shows what would be downloaded). */
  url?: string | undefined;
  /** Where the desktop entry went (updated apps with desktop integration). */
  desktop?: DesktopOutcome | undefined;
  /** The proxy base the release metadata came through (the hub was rate-limited). */
  via_proxy?: string | undefined;
}

/** Counts of every outcome, always covering all selected apps. */
export interface Summary {
  updated: number;
  up_to_date: number;
  update_available: number;
  deferred: number;
  rate_limited: number;
  failed: number;
  skipped: number;
  interrupted: number;
  offline: number;
}

/** Counts outcomes by status. */
export function summarize(outcomes: readonly AppOutcome[]): Summary {
  const s: Summary = {
    updated: 0,
    up_to_date: 0,
    update_available: 0,
    deferred: 0,
    rate_limited: 0,
    failed: 0,
    skipped: 0,
    interrupted: 0,
    offline: 0,
  };
  for (const o of outcomes) s[o.status]++;
  return s;
}

/** A blank outcome for an app, filled in by the steps. */
export function outcomeFor(name: string, status: AppStatus, fromVersion: string | null): AppOutcome {
  return {
    name,
    status,
    from_version: fromVersion,
    to_version: null,
    path: null,
    error: null,
    retry_at: null,
    warnings: [],
  };
}

/** Why a removed app is skipped until it is named (`update APP` installs it again). */
export function removedReason(name: string): string {
  return `removed; run \`update ${name}\` to install it again`;
}

/** An app that Ctrl-C or SIGTERM stopped (or kept from starting); its installed file is untouched. */
export function interruptedOutcome(
  name: string,
  fromVersion: string | null,
  path: string | undefined,
): AppOutcome {
  return {
    ...outcomeFor(name, 'interrupted', fromVersion),
    path: path ?? null,
    reason: 'interrupted; the installed version stays as it was',
  };
}

/** An app a run found offline did not check: its installed file and state stay as they were. */
export function offlineOutcome(
  name: string,
  fromVersion: string | null,
  path: string | undefined,
): AppOutcome {
  return {
    ...outcomeFor(name, 'offline', fromVersion),
    path: path ?? null,
    reason: 'offline; not checked',
  };
}

/** The outcome of an app the run's signal stopped: offline when that was the reason, else interrupted. */
export function stoppedOutcome(
  offline: boolean,
  name: string,
  fromVersion: string | null,
  path: string | undefined,
): AppOutcome {
  return offline ? offlineOutcome(name, fromVersion, path) : interruptedOutcome(name, fromVersion, path);
}
