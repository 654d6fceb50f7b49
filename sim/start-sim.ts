/** Starts the two loopback origins of the simulator and exposes the `Sim` control surface. */
import { randomBytes } from 'node:crypto';
import { Agent, createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { storeAsset } from './body-source.js';
import { handler, type OriginState, type SimState } from './dispatch.js';
import { FaultTable } from './faults.js';
import { controlsOf, startForges } from './forges.js';
import { hubApiPrefix } from './hub-api.js';
import { PROXY_PATH } from './proxy.js';
import { RateBudgets } from './rate-limit.js';
import type { AssetBody, AssetOptions, Sim, SimOptions, SimOrigin } from './types.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function normalizePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

/** Starts a simulator on two free loopback ports (or the ones given). */
export async function startSim(options: SimOptions = {}): Promise<Sim> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`sim: refusing to bind a non-loopback address: ${host}`);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let counter = 0;
  const ids = { next: () => ++counter };
  const stop = new AbortController();
  const agent = new Agent({ keepAlive: false });
  const origins = {} as Record<SimOrigin, OriginState>;
  const budgets = new RateBudgets();

  const forges = startForges({
    options,
    ids,
    budgets,
    putSecond: (path, body) => put(origins.second, path, body),
    async sizeOf(url: string): Promise<number | undefined> {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      const origin = Object.values(origins).find((o) => o.url === parsed.origin);
      const asset = origin?.assets.get(parsed.pathname);
      if (!asset) return undefined;
      if (asset.knownSize !== undefined) return asset.knownSize;
      return asset
        .snapshot()
        .then((s) => s.size)
        .catch(() => undefined);
    },
  });
  const state: SimState = {
    hopToken: randomBytes(16).toString('hex'),
    requests: [],
    faults: new FaultTable(),
    forges,
    agent,
    stopSignal: stop.signal,
    onRequest: options.onRequest,
  };

  const servers: Server[] = [];
  for (const [name, port] of [
    ['main', options.port ?? 0],
    ['second', options.secondPort ?? 0],
  ] as const) {
    const origin: OriginState = { name, url: '', assets: new Map(), redirects: new Map() };
    const server = options.tls
      ? createHttpsServer({ keepAliveTimeout: 5000, ...options.tls }, handler(state, origin))
      : createServer({ keepAliveTimeout: 5000 }, handler(state, origin));
    try {
      origin.url = `${options.tls ? 'https' : 'http'}://${urlHost}:${await listen(server, host, port)}`;
    } catch (err) {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
      throw err;
    }
    origins[name] = origin;
    servers.push(server);
  }
  const { main, second } = origins;

  const put = (origin: OriginState, path: string, body: AssetBody, opts?: AssetOptions): string => {
    const p = normalizePath(path);
    origin.redirects.delete(p);
    origin.assets.set(p, storeAsset(body, opts));
    return `${origin.url}${p}`;
  };
  const redirectOn = (origin: OriginState, path: string, target: string, status = 302): void => {
    const p = normalizePath(path);
    origin.assets.delete(p);
    origin.redirects.set(p, { target, status });
  };
  const remove = (origin: OriginState, path: string): void => {
    const p = normalizePath(path);
    origin.assets.delete(p);
    origin.redirects.delete(p);
  };
  let stopping: Promise<void> | undefined;

  const sim: Sim = {
    ...controlsOf(forges),
    url: main.url,
    secondUrl: second.url,
    hubApiUrl: `${main.url}${hubApiPrefix(options)}`,
    labApiUrl: `${main.url}/api/v4`,
    requests: state.requests,
    clearRequests: () => {
      state.requests.length = 0;
    },
    putAsset: (path, body, opts) => put(main, path, body, opts),
    putSecondAsset: (path, body, opts) => put(second, path, body, opts),
    redirect: (path, target, status) => redirectOn(main, path, target, status),
    redirectSecond: (path, target, status) => redirectOn(second, path, target, status),
    removeAsset: (path) => remove(main, path),
    removeSecondAsset: (path) => remove(second, path),
    // On the second origin so a client that scopes its token to the hub API origin never sends it here.
    proxyPrefix: () => `${second.url}${PROXY_PATH}`,
    fault: (pattern, fault) => state.faults.add(pattern, fault),
    clearFaults: () => state.faults.clear(),
    setRateLimit: (opts) => budgets.configure(opts),
    resetRateLimit: () => budgets.reset(),
    stop() {
      stopping ??= (async () => {
        stop.abort();
        agent.destroy();
        await Promise.all(
          servers.map(
            (server) =>
              new Promise<void>((resolve) => {
                server.close(() => resolve());
                server.closeAllConnections();
              }),
          ),
        );
      })();
      return stopping;
    },
  };
  return sim;
}
