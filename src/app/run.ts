import type { Workspace } from '../config/workspace.js';
import type { Context } from '../context/context.js';
import { createHostLimiter, type HostLimiter } from '../transfer/download/index.js';
import { DesktopClaims } from '../install/desktop-claims.js';
import type { StateStore } from '../state/store.js';
import { PROC_ROUTES } from '../http/routes.js';
import { OfflineWatch } from './offline.js';

/** Per-run limits; documented in docs/architecture.md ("The walk of `update`"). */
export const LIMITS = {
  /** Metadata requests in flight per repository/URL host. */
  resolvePerHost: 8,
  /** Apps resolved at once overall. */
  resolveTotal: 32,
  /** Downloads in flight per asset host. */
  downloadPerHost: 3,
  /** Apps downloading at once overall. */
  downloadTotal: 4,
} as const;

/** Everything one check/update run shares across its apps. */
export interface Run {
  ctx: Context;
  ws: Workspace;
  store: StateStore;
  /** One per run, so recipes sharing a repository cost one request. */
  memo: Map<string, Promise<unknown>>;
  resolveLimiter: HostLimiter;
  downloadLimiter: HostLimiter;
  /** Aborted by Ctrl-C/SIGTERM, or when the run finds the machine offline (see `offline`). */
  signal: AbortSignal;
  /** Decides, on the first no-network failure, whether the whole machine is offline. */
  offline: OfflineWatch;
  /** Desktop ids and icon names taken by the apps of this run (and recorded in state). */
  desktopClaims: DesktopClaims;
  /** Body bytes each app's downloads received in this run, failed and interrupted attempts included. */
  bytesByApp: Map<string, number>;
}

/** Creates the shared run state. */
export function createRun(
  ctx: Context,
  ws: Workspace,
  store: StateStore,
  signal: AbortSignal,
  offline: OfflineWatch = new OfflineWatch(PROC_ROUTES, ctx.http.reach),
): Run {
  return {
    ctx,
    ws,
    store,
    memo: new Map(),
    resolveLimiter: createHostLimiter(LIMITS.resolvePerHost),
    downloadLimiter: createHostLimiter(LIMITS.downloadPerHost),
    // Offline stops every request still waiting, as an interruption does (its reason exits 75).
    signal: AbortSignal.any([signal, offline.signal]),
    offline,
    desktopClaims: DesktopClaims.fromState(store.snapshot().apps),
    bytesByApp: new Map(),
  };
}
