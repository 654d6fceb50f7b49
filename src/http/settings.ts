/**
 * The network settings of one run (`ctx.http`): the keep-alive agents every request goes
 * through and the connect timeout. Built once per run by the command layer and passed down, so
 * a later setting (a proxy, a CA store) is one field here and one line where it is read; tests
 * build their own.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { createProxyAgentPool, type TunnelCounter } from './proxy-agents.js';
import { isDirect, proxyFor, type ProxyRules } from './proxy-env.js';

/** What every HTTP request of a run shares. */
export interface HttpSettings {
  /**
   * The agent a request to `target` goes through: the keep-alive agent of its protocol. It sees
   * the whole URL so a per-host rule (a proxy and its exceptions) is decided here, in one place.
   */
  agentFor(target: URL): HttpAgent;
  /** Time to establish a new TCP connection. */
  connectTimeoutMs: number;
  /** The proxy rules of the run (docs/network.md); undefined: every request goes direct. */
  proxy: ProxyRules | undefined;
  /** Proxy tunnels and connections opened so far (tests and benchmarks read it). */
  tunnels: TunnelCounter;
  /** The effective proxy variables, for children that make their own requests (resolver scripts). */
  proxyEnv: Record<string, string>;
}

/** What createHttpSettings may be given. */
export interface HttpSettingsOptions {
  connectTimeoutMs?: number;
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
  const proxy = overrides.proxy && !isDirect(overrides.proxy) ? overrides.proxy : undefined;
  const tunnels: TunnelCounter = { opened: 0 };
  const viaProxy = proxy ? createProxyAgentPool(agentOptions, tunnels) : undefined;
  return {
    agentFor(target: URL): HttpAgent {
      if (overrides.proxyError) throw overrides.proxyError;
      const through = proxy && viaProxy ? proxyFor(proxy, target) : undefined;
      if (through && viaProxy) return viaProxy(through, target);
      if (target.protocol === 'https:') return (httpsAgent ??= new HttpsAgent(agentOptions));
      return (httpAgent ??= new HttpAgent(agentOptions));
    },
    connectTimeoutMs: overrides.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    proxy,
    tunnels,
    proxyEnv: overrides.proxyEnv ?? {},
  };
}
