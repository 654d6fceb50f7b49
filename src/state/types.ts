/**
 * The shapes of state.json. Those state.json entries a load validates are inferred from the zod
 * schemas in `schema.ts` (one definition, no drift); the rest are written only by this tool.
 */
import type { CachedResponse } from './cached-response.js';
import type { AppState, ForgeKind, RateLimitWindow } from './schema.js';

export type {
  AppState,
  ForgeKind,
  InstalledRecord,
  IntegrationState,
  LaunchRecord,
  ProvenanceRecord,
  RateLimitWindow,
  ReleaseAssetRecord,
  SignatureState,
} from './schema.js';

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
  forgeKinds: Record<string, ForgeKind>;
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

/** A conditional-request cache entry (one type, defined with the cache in http/conditional.ts). */
export type { CachedResponse };

/** The metadata cache file, kept apart from state so state writes stay small. */
export interface CacheData {
  schema: 1;
  responses: Record<string, CachedResponse>;
}
