/** Shared builders for resolver tests: full AppSettings, a Context, deps and a tiny JSON server. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppSettings, StrategyConfig } from '../../src/config/types.js';
import { resolvePaths } from '../../src/config/paths.js';
import type { Context } from '../../src/context/context.js';
import type { KeeperEvent } from '../../src/core/events.js';
import { createMemoryResolverStore } from '../../src/sources/memory-store.js';
import type { ResolveDeps, ResolverStore } from '../../src/sources/types.js';
import { createHttpSettings } from '../../src/http/settings.js';

/** Effective settings with the seed's defaults, proxies off unless a test turns them on. */
export function makeSettings(strategy: StrategyConfig, overrides: Partial<AppSettings> = {}): AppSettings {
  return {
    storage_dir: '/tmp/ak-unused/storage',
    symlink_dir: '/tmp/ak-unused/bin',
    naming_format: '{name}.AppImage',
    manage_desktop_files: false,
    create_symlinks: false,
    segmented_downloads: true,
    delta: 'auto',
    show_all: false,
    respect_rate_limits: true,
    hub_proxy: false,
    hub_proxy_prefix: 'all',
    download_connections: 4,
    stall_timeout: 30,
    min_rate: 10240,
    app_timeout: 1800,
    notify: false,
    keep_previous: true,
    max_asset_size: 4 * 1024 ** 3,
    provenance: 'off',
    release_attestation: 'auto',
    signature: 'tofu',
    launch_fixes: true,
    auto_self_update: false,
    name: 'demo',
    strategy,
    ignore: false,
    zsync: false,
    desktop_exec_args: [],
    desktop_env: {},
    recipeFile: '/tmp/ak-unused/apps/demo/demo.yml',
    recipeDir: '/tmp/ak-unused/apps/demo',
    ...overrides,
  };
}

/** A forge strategy block. */
export function forge(
  repository: string,
  extra: Partial<Omit<StrategyConfig & { strategy: 'forge' }, 'strategy'>> = {},
): StrategyConfig {
  return { strategy: 'forge', repository, asset_match: '*.AppImage', ...extra };
}

/** A context with a movable clock and recorded events. */
export interface TestContext extends Context {
  events: KeeperEvent[];
  clock: { now: Date };
}

/** Builds a context: empty env (plus `env`), x64 host, events collected. */
export function makeContext(env: NodeJS.ProcessEnv = {}, arch = 'x64'): TestContext {
  const events: KeeperEvent[] = [];
  const clock = { now: new Date() };
  return {
    env: { PATH: process.env.PATH, ...env },
    paths: resolvePaths({ HOME: '/tmp/ak-unused-home' }),
    now: () => clock.now,
    arch,
    emit: (event) => void events.push(event),
    http: createHttpSettings(),
    events,
    clock,
  };
}

/** Deps with a fresh memo; pass a store to carry state across "runs". */
export function makeDeps(
  ctx: TestContext = makeContext(),
  store: ResolverStore = createMemoryResolverStore(),
  extra: Partial<ResolveDeps> = {},
): ResolveDeps {
  return { ctx, store, memo: new Map(), proxyBuiltins: [], ...extra };
}

/** A loopback server answering every request with `answer`, recording what it got. */
export interface StubServer {
  url: string;
  hits: { path: string; headers: IncomingHttpHeaders }[];
  stop(): Promise<void>;
}

/** Starts a stub server on 127.0.0.1. */
export async function startStub(
  answer: (path: string) => { status: number; body: string; headers?: Record<string, string> },
): Promise<StubServer> {
  const hits: StubServer['hits'] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push({ path, headers: req.headers });
    const out = answer(path);
    res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
    res.end(out.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Header value of a recorded request, lower-case name. */
export function header(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
