/**
 * Whether the machine has no working network, decided the first time a request fails before any
 * server answered. A run that finds itself offline stops at once (every app `offline`, exit 75,
 * state untouched) instead of recording one failure per app; see docs/network.md "Offline".
 *
 * Offline means either: (1) a request failed with a no-network error — no route (ENETUNREACH,
 * ENETDOWN, EHOSTUNREACH) or no name resolution (EAI_AGAIN, ENOTFOUND, EAI_FAIL) — and the kernel
 * has no default route, IPv4 or IPv6 (/proc/net/route, /proc/net/ipv6_route); or (2) a route but
 * no DNS: no server has answered this run and the failure is an unreachable resolver (EAI_AGAIN)
 * or no route (src/http/reach.ts). A host that is down (ECONNREFUSED, a timeout) or misspelled
 * (ENOTFOUND: a DNS server answered) on a machine that has a route fails only its apps. (3) The
 * configured proxy cannot be reached (TRANSPORT_PROXY_UNREACHABLE): it is the only way out.
 */
import { ExitCode, KeeperError } from '../core/errors.js';
import type { NetworkReach } from '../http/reach.js';
import { causeCodes } from '../http/cause-codes.js';
import { hasDefaultRoute, isNoNetworkError, PROC_ROUTES, type RouteTables } from '../http/routes.js';
import { TransportCode } from '../http/transport-errors.js';

export { hasDefaultRoute, isNoNetworkError } from '../http/routes.js';

/** The run's offline detector; `signal` aborts the rest of the run once the machine is offline. */
export class OfflineWatch {
  private readonly controller = new AbortController();
  private verdict: boolean | undefined;

  /** `reach`: the run's HTTP evidence (ctx.http.reach); without it only the no-route rule applies. */
  constructor(
    private readonly routes: RouteTables = PROC_ROUTES,
    private readonly reach?: NetworkReach,
  ) {}

  /** Aborted (with an OFFLINE KeeperError, exit 75) once the run knows the machine is offline. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the run found the machine offline. */
  get offline(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * Looks at a failed app's error: when it is a no-network failure and the machine has no default
   * route, or nothing has answered this run and the resolver cannot be reached, marks the run
   * offline (aborting `signal`) and returns true. Synchronous, so the caller decides before
   * recording anything.
   */
  noteFailure(err: unknown): boolean {
    if (this.offline) return true;
    // The configured proxy is the only way out: when it cannot be reached, nothing can be.
    if (causeCodes(err).includes(TransportCode.proxyUnreachable)) {
      this.controller.abort(offlineError());
      return true;
    }
    if (!isNoNetworkError(err)) return false;
    // The route tables are read once: a route that appears mid-run does not bring back the apps
    // already marked offline, and one that vanishes is the next run's business.
    this.verdict ??= !hasDefaultRoute(this.routes);
    if (!this.verdict && !this.reach?.silentlyUnreachable(err)) return false;
    this.controller.abort(offlineError());
    return true;
  }
}

/** The error a run found offline ends with: exit 75 (EX_TEMPFAIL), the timer's "try later". */
export function offlineError(): KeeperError {
  return new KeeperError(
    'OFFLINE',
    'no network: this machine has no route to the internet, no working DNS, or a proxy that cannot be reached; nothing was changed',
    {
      exitCode: ExitCode.tempFail,
      hint: 'run again once the network is up (the timer does so on its own)',
    },
  );
}
