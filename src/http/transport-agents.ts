import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

// Per origin: four segments of each of a few parallel downloads plus metadata requests. Requests
// past the bound wait in the agent's queue instead of opening ever more connections.
const MAX_SOCKETS_PER_ORIGIN = 32;
const MAX_SOCKETS_TOTAL = 128;
const MAX_FREE_SOCKETS_PER_ORIGIN = 16;
// Idle keep-alive sockets are dropped before common server keep-alive timeouts (5 s in node,
// nginx 75 s), so a reused socket is rarely one the server is closing; node also honours a
// shorter `Keep-Alive: timeout=` hint from the server.
const FREE_SOCKET_TIMEOUT_MS = 4_000;

let httpAgent: HttpAgent | undefined;
let httpsAgent: HttpsAgent | undefined;

const options = {
  keepAlive: true,
  maxSockets: MAX_SOCKETS_PER_ORIGIN,
  maxTotalSockets: MAX_SOCKETS_TOTAL,
  maxFreeSockets: MAX_FREE_SOCKETS_PER_ORIGIN,
  timeout: FREE_SOCKET_TIMEOUT_MS,
  // The most recently used socket is the least likely to have been closed by the server.
  scheduling: 'lifo',
} as const;

/**
 * The process-wide keep-alive agent for `protocol` ("http:" or "https:"), created on first use.
 * Idle sockets are unref'd by node, so they never keep the process alive.
 */
export function agentFor(protocol: string): HttpAgent {
  if (protocol === 'https:') return (httpsAgent ??= new HttpsAgent(options));
  return (httpAgent ??= new HttpAgent(options));
}
