/** What we installed for one app; `remove` and `rollback` undo exactly this. */
export interface InstalledRecord {
  version: string;
  /** The remote identity compared on the next run (tag+asset, header value, script URL+version). */
  identity: string;
  /** Absolute path of the installed AppImage. */
  file: string;
  url: string;
  size: number;
  sha256: string;
  installedAt: string;
}

/** Desktop entry and icons we wrote for an app. */
export interface IntegrationState {
  desktopId: string;
  desktopFile: string;
  icons: string[];
}

/** Per-app state. */
export interface AppState {
  strategy: string;
  installed?: InstalledRecord | undefined;
  /** Kept for rollback; lives outside the naming pattern. */
  previous?: (InstalledRecord & { integration?: IntegrationState | undefined }) | undefined;
  integration?: IntegrationState | undefined;
  symlink?: string | undefined;
  /** Held apps are skipped by update until `update --force` or `unhold`. */
  hold?: boolean | undefined;
  lastCheck?: string | undefined;
  lastUpdate?: string | undefined;
  /** Latest version seen by check or update. */
  latest?: { version: string; identity: string; checkedAt: string } | undefined;
  lastError?: { code: string; message: string; at: string } | undefined;
}

/** One rate-limit window, per API host (`host:<h>`) or per app (`app:<name>`). */
export interface RateLimitWindow {
  until: string;
  message: string;
}

/** Summary of the last mutating run, for `schedule status` and `doctor`. */
export interface RunRecord {
  command: string;
  startedAt: string;
  finishedAt: string;
  summary: Record<string, number>;
  failed: string[];
  updated: string[];
}

/** The whole state file. */
export interface StateData {
  schema: 1;
  apps: Record<string, AppState>;
  forgeKinds: Record<string, 'gitea' | 'forgejo'>;
  rateLimits: Record<string, RateLimitWindow>;
  lastRun?: RunRecord | undefined;
  /** App entries that failed validation on load, kept verbatim for the user and otherwise ignored. */
  setAside?: Record<string, SetAsideEntry> | undefined;
}

/** An invalid app entry moved out of `apps`, with why. */
export interface SetAsideEntry {
  entry: unknown;
  reason: string;
  at: string;
}

/** A conditional-request cache entry for release metadata. */
export interface CachedResponse {
  etag?: string | undefined;
  lastModified?: string | undefined;
  body: unknown;
  fetchedAt: string;
}

/** The metadata cache file, kept apart from state so state writes stay small. */
export interface CacheData {
  schema: 1;
  responses: Record<string, CachedResponse>;
}
