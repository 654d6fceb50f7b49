/**
 * The network settings of one run (`ctx.http`): the keep-alive agents every request goes
 * through, the connect timeout, the proxy rules and the certificate authorities. Built once per
 * run by the command layer and passed down; tests build their own.
 */
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { createCaStore, type CaStore } from './ca-store.js';
import type { ProxyAgentPool, TunnelCounter } from './proxy-agents.js';
import { isDirect, proxyFor, type ProxyRules } from './proxy-env.js';
import { NetworkReach } from './reach.js';

// node:http and node:https (with tls, net and crypto behind them) are loaded on the first request:
// Context is built for every command, and `list` or `validate` never fetch; loading them cost more
// CPU than reading a hundred recipes. process.getBuiltinModule (Node 20.16+) keeps agentFor
// synchronous and works in the CommonJS standalone bundle too.

/** What every HTTP request of a run shares. */
export interface HttpSettings {
  /**
   * The agent a request to `target` goes through: the keep-alive agent of its protocol, or of the
   * proxy that serves it. It sees the whole URL so a per-host rule (a proxy and its exceptions)
   * is decided here, in one place.
   */
  agentFor(target: URL): HttpAgent;
  /**
   * Loads what a request to `target` needs before `agentFor` is asked (the proxy agents, only when
   * a proxy serves it), so a run that never uses a proxy never loads them.
   */
  ready?(target: URL): Promise<void>;
  /** Time to establish a new TCP connection. */
  connectTimeoutMs: number;
  /** The certificate authorities https connections trust (read on the first TLS connection). */
  ca: CaStore;
  /** The proxy rules of the run (docs/network.md); undefined: every request goes direct. */
  proxy: ProxyRules | undefined;
  /** Proxy tunnels and connections opened so far (tests and benchmarks read it). */
  tunnels: TunnelCounter;
  /** The effective proxy variables, for children that make their own requests (resolver scripts). */
  proxyEnv: Record<string, string>;
  /** Whether anything answered this run yet: an unreachable resolver before that means offline. */
  reach: NetworkReach;
}

/** What createHttpSettings may be given. */
export interface HttpSettingsOptions {
  connectTimeoutMs?: number;
  ca?: CaStore;
  proxy?: ProxyRules | undefined;
  proxyEnv?: Record<string, string>;
  /** A proxy setting that could not be read: every request fails with it instead of going direct. */
  proxyError?: Error | undefined;
}

// Per origin: four segments of each of a few parallel downloads plus metadata requests. Requests
// past the bound wait in the agent's queue instead of opening ever more connections.
const MAX_SOCKETS_PER_ORIGIN = 32;
const MAX_SOCKETS_TOTAL = 128;
const MAX_FREE_SOCKETS_PER_ORIGIN = 16;
// Idle keep-alive sockets are dropped before common server keep-alive timeouts (5 s in node,
// nginx 75 s), so a reused socket is rarely one the server is closing; node also honours a
// shorter `Keep-Alive: timeout=` hint from the server.
const FREE_SOCKET_TIMEOUT_MS = 4_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

const agentOptions = {
  keepAlive: true,
  maxSockets: MAX_SOCKETS_PER_ORIGIN,
  maxTotalSockets: MAX_SOCKETS_TOTAL,
  maxFreeSockets: MAX_FREE_SOCKETS_PER_ORIGIN,
  timeout: FREE_SOCKET_TIMEOUT_MS,
  // The most recently used socket is the least likely to have been closed by the server.
  scheduling: 'lifo',
} as const;

/**
 * Settings with their own agents, created on first use. Idle sockets are unref'd by node, so
 * they never keep the process alive.
 */
export function createHttpSettings(overrides: HttpSettingsOptions = {}): HttpSettings {
  let httpAgent: HttpAgent | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const ca = overrides.ca ?? createCaStore(process.env);
  const proxy = overrides.proxy && !isDirect(overrides.proxy) ? overrides.proxy : undefined;
  const tunnels: TunnelCounter = { opened: 0 };
  let viaProxy: ProxyAgentPool | undefined;
  return {
    async ready(target: URL): Promise<void> {
      if (viaProxy || !proxy || !proxyFor(proxy, target)) return;
      const { createProxyAgentPool } = await import('./proxy-agents.js');
      // A proxy agent replaces the agent's own TLS options: it gets the run's CA store too.
      viaProxy ??= createProxyAgentPool({ ...agentOptions, secureContext: ca.secureContext() }, tunnels);
    },
    agentFor(target: URL): HttpAgent {
      if (overrides.proxyError) throw overrides.proxyError;
      const through = proxy ? proxyFor(proxy, target) : undefined;
      if (through) {
        if (!viaProxy) throw new Error(`proxy agents not loaded: ready(${target.origin}) was not awaited`);
        return viaProxy(through, target);
      }
      if (target.protocol === 'https:') {
        // One TLS context for the run: the CA files are read here, on the first https request.
        return (httpsAgent ??= new (process.getBuiltinModule('node:https').Agent)({
          ...agentOptions,
          secureContext: ca.secureContext(),
        }));
      }
      return (httpAgent ??= new (process.getBuiltinModule('node:http').Agent)(agentOptions));
    },
    connectTimeoutMs: overrides.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ca,
    proxy,
    tunnels,
    proxyEnv: overrides.proxyEnv ?? {},
    reach: new NetworkReach(),
  };
}
