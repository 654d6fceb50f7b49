/**
 * The keep-alive agents that reach a target through a proxy, from the `proxy-agent` family npm
 * builds on (docs/decisions.md): HTTPS through a `CONNECT` tunnel the proxy resolves the name
 * for, HTTP in absolute form, SOCKS through socks-proxy-agent. One agent per proxy and target
 * scheme for the whole run, so tunnels are pooled per target host like direct connections.
 */
import type { Agent as HttpAgent, AgentOptions as HttpAgentOptions, ClientRequest } from 'node:http';
import type { SecureContext } from 'node:tls';

/** Keep-alive options of the run's agents, with its TLS context for tunnelled https. */
type AgentOptions = HttpAgentOptions & { secureContext?: SecureContext };
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { GIVE_UP_OPTION } from './proxy-request.js';
import { SocksProxyAgent } from 'socks-proxy-agent';

/** Gives the agent that reaches `target` through `proxy`, created on first use. */
export type ProxyAgentPool = (proxy: URL, target: URL) => HttpAgent;

/** Tunnels (CONNECT or SOCKS connections) opened so far, counted for benchmarks and tests. */
export interface TunnelCounter {
  opened: number;
}

/** A pool of proxy agents sharing the direct agents' keep-alive and socket limits. */
export function createProxyAgentPool(options: AgentOptions, counter?: TunnelCounter): ProxyAgentPool {
  const agents = new Map<string, HttpAgent>();
  return (proxy, target) => {
    const socks = proxy.protocol.startsWith('socks');
    const key = `${proxy.href} ${socks ? 'any' : target.protocol}`;
    let agent = agents.get(key);
    if (!agent) {
      agent = makeAgent(proxy, target, options, socks);
      if (agent instanceof HttpsProxyAgent) closeWithRequest(agent as HttpsProxyAgent<string>);
      if (options.secureContext) trustInTunnels(agent, options.secureContext);
      if (counter) countTunnels(agent, counter);
      agents.set(key, agent);
    }
    return agent;
  };
}

function makeAgent(proxy: URL, target: URL, options: AgentOptions, socks: boolean): HttpAgent {
  if (socks) return new SocksProxyAgent(proxy, options);
  if (target.protocol === 'https:') return new HttpsProxyAgent(proxy, options);
  return new HttpProxyAgent(proxy, options);
}

// https-proxy-agent resets the agent's options after its constructor, so the TLS connection it
// opens inside a CONNECT tunnel sees only the request's options: without this, the run's CA store
// (SSL_CERT_FILE, ca_file, the system bundle) would hold for direct requests and not through a
// proxy. Every connect gets the run's context unless the request brings its own.
function trustInTunnels(agent: HttpAgent, secureContext: SecureContext): void {
  const withConnect = agent as unknown as {
    connect: (req: unknown, opts: Record<string, unknown>) => Promise<unknown>;
  };
  const connect = withConnect.connect.bind(agent);
  withConnect.connect = (req, opts) =>
    connect(req, { ...opts, secureContext: opts.secureContext ?? secureContext });
}

// https-proxy-agent opens its socket to the proxy before its first await and then waits for the
// CONNECT answer with no timeout of its own: a request the transport gives up on (its connect
// timeout, an abort) would leave that socket open, and a silent proxy would keep the process
// alive. The socket gets the request's own signal (the transport's give-up signal, which node's
// http passes on in the connect options), so giving up on the request closes it.

function closeWithRequest(agent: HttpsProxyAgent<string>): void {
  const withConnect = agent as unknown as {
    connectOpts: Record<string, unknown>;
    connect: (req: ClientRequest, opts: Record<string, unknown>) => Promise<unknown>;
  };
  const connect = withConnect.connect.bind(agent);
  withConnect.connect = (req, opts) => {
    const signal = opts[GIVE_UP_OPTION];
    if (!(signal instanceof AbortSignal)) return connect(req, opts);
    const shared = withConnect.connectOpts;
    withConnect.connectOpts = { ...shared, signal };
    try {
      return connect(req, opts);
    } finally {
      withConnect.connectOpts = shared;
    }
  };
}

// agent-base opens a connection through its `connect` hook; each call is one new tunnel or
// proxy connection (a reused keep-alive socket never reaches it).
function countTunnels(agent: HttpAgent, counter: TunnelCounter): void {
  const withConnect = agent as unknown as { connect: (...args: unknown[]) => Promise<unknown> };
  const connect = withConnect.connect.bind(agent);
  withConnect.connect = (...args: unknown[]) => {
    counter.opened++;
    return connect(...args);
  };
}
