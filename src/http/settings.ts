/**
 * The network settings of one run (`ctx.http`): the keep-alive agents every request goes
 * through and the connect timeout. Built once per run by the command layer and passed down, so
 * a later setting (a proxy, a CA store) is one field here and one line where it is read; tests
 * build their own.
 */
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { createCaStore, type CaStore } from './ca-store.js';

// node:http and node:https (with tls, net and crypto behind them) are loaded on the first request:
// Context is built for every command, and `list` or `validate` never fetch; loading them cost more
// CPU than reading a hundred recipes. process.getBuiltinModule (Node 20.16+) keeps agentFor
// synchronous and works in the CommonJS standalone bundle too.

/** What every HTTP request of a run shares. */
export interface HttpSettings {
  /**
   * The agent a request to `target` goes through: the keep-alive agent of its protocol. It sees
   * the whole URL so a per-host rule (a proxy and its exceptions) is decided here, in one place.
   */
  agentFor(target: URL): HttpAgent;
  /** Time to establish a new TCP connection. */
  connectTimeoutMs: number;
  /** The certificate authorities https connections trust (read on the first TLS connection). */
  ca: CaStore;
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
export function createHttpSettings(
  overrides: Partial<Pick<HttpSettings, 'connectTimeoutMs' | 'ca'>> = {},
): HttpSettings {
  let httpAgent: HttpAgent | undefined;
  let httpsAgent: HttpsAgent | undefined;
  const ca = overrides.ca ?? createCaStore(process.env);
  return {
    agentFor(target: URL): HttpAgent {
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
  };
}
