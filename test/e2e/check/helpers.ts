/**
 * Shared pieces of the `check` end-to-end tests: the built CLI against the in-process sim, recipe
 * builders, and a record of the status codes the sim answered (requests alone cannot show a 304).
 */
import { ServerResponse } from 'node:http';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { stringify } from 'yaml';
import { startSim, type RecordedRequest, type Sim, type SimOptions } from '../../../sim/index.js';
import { runCli, type CliRun } from '../../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';

/** One app in `check --json`. */
export interface CheckApp {
  name: string;
  status:
    'up_to_date' | 'update_available' | 'deferred' | 'rate_limited' | 'failed' | 'skipped' | 'interrupted';
  installed_version: string | null;
  latest_version: string | null;
  path: string | null;
  url: string | null;
  error: { code: string; message: string; hint?: string } | null;
  retry_at: string | null;
  /** `deferred`: when the release becomes old enough to install. */
  eligible_at?: string;
  reason?: string;
}

/** The whole `check --json` document. */
export interface CheckJson {
  command: 'check';
  apps: CheckApp[];
  summary: Record<
    'updated' | 'up_to_date' | 'update_available' | 'deferred' | 'rate_limited' | 'failed' | 'skipped',
    number
  >;
  error?: { code: string; message: string };
}

/** A response the sim sent, as seen from the test process. */
export interface SentResponse {
  method: string;
  path: string;
  status: number;
}

/**
 * Records every response status written by any `node:http` server of this process (the sim lives
 * here, the CLI in a child). Returns the list and a function that undoes the patch.
 */
export function recordResponses(): { responses: SentResponse[]; restore(): void } {
  const responses: SentResponse[] = [];
  const proto = ServerResponse.prototype as unknown as {
    writeHead: (this: ServerResponse, status: number, ...rest: unknown[]) => ServerResponse;
  };
  const original = proto.writeHead;
  proto.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    responses.push({ method: this.req.method ?? '', path: this.req.url ?? '', status });
    return original.call(this, status, ...rest);
  };
  return {
    responses,
    restore: () => {
      proto.writeHead = original;
    },
  };
}

/** A sim shared by one test file, the homes it made, and the response record. */
export interface E2e {
  sim: Sim;
  responses: SentResponse[];
  /** A fresh temp home; removed by `stop()`. */
  home(): Promise<TmpHome>;
  stop(): Promise<void>;
}

/** Starts a sim (with `options`) and the response record for one test file. */
export async function startE2e(options: SimOptions = {}): Promise<E2e> {
  const sim = await startSim(options);
  const rec = recordResponses();
  const homes: TmpHome[] = [];
  return {
    sim,
    responses: rec.responses,
    async home() {
      const h = await makeTmpHome();
      homes.push(h);
      return h;
    },
    async stop() {
      rec.restore();
      await sim.stop();
      await Promise.all(homes.map((h) => h.cleanup()));
    },
  };
}

/**
 * Registers `before`/`after` hooks in the current describe block that start an E2e for it and stop
 * it afterwards; the returned object reaches that E2e from the block's tests and later hooks.
 */
export function useE2e(options: SimOptions = {}): E2e {
  let current: E2e | undefined;
  const get = (): E2e => {
    if (!current) throw new Error('the E2e is used outside its describe block');
    return current;
  };
  before(async () => {
    current = await startE2e(options);
  });
  after(async () => {
    await current?.stop();
    current = undefined;
  });
  return {
    get sim() {
      return get().sim;
    },
    get responses() {
      return get().responses;
    },
    home: () => get().home(),
    stop: () => get().stop(),
  };
}

/**
 * The CLI environment of a home: never the public proxies (`proxies` replaces the built-in list,
 * default none), plus any extra variables.
 */
export function cliEnv(h: TmpHome, extra: Record<string, string> = {}, proxies = ''): NodeJS.ProcessEnv {
  return { ...h.env, APPIMAGE_KEEPER_PROXY_BUILTINS: proxies, ...extra };
}

/** Runs `appimage-keeper --json check [apps...]`. */
export function check(env: NodeJS.ProcessEnv, apps: string[] = []): Promise<CliRun<CheckJson>> {
  return runCli<CheckJson>(['--json', 'check', ...apps], { env });
}

/** The app named `name` in a check result; fails when it is missing. */
export function app(run: CliRun<CheckJson>, name: string): CheckApp {
  const found = run.json?.apps.find((a) => a.name === name);
  if (!found) throw new Error(`no app ${name} in ${run.stdout}\n${run.stderr}`);
  return found;
}

/** Requests the sim received whose path contains `fragment`. */
export function requestsTo(sim: Sim, fragment: string): RecordedRequest[] {
  return sim.requests.filter((r) => r.path.includes(fragment));
}

/** A hub recipe pointing at the sim (API base and web host overridden as an enterprise user would). */
export function hubRecipe(
  sim: Sim,
  name: string,
  repo: string,
  strategy: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
): string {
  return stringify({
    name,
    hub_release_api_url: sim.hubApiUrl,
    hub_release_web_url: sim.url,
    ...top,
    strategy: { strategy: 'forge', repository: `${sim.url}/${repo}`, asset_match: '*.AppImage', ...strategy },
  });
}

/** A direct recipe. */
export function directRecipe(name: string, url: string, checkMethod: 'etag' | 'last-modified'): string {
  return stringify({ name, strategy: { strategy: 'direct', url, check_method: checkMethod } });
}

/** Writes a script recipe and its `resolver.sh` into `apps/<name>/`. */
export async function writeScriptRecipe(
  h: TmpHome,
  name: string,
  script: string,
  strategy: Record<string, unknown> = {},
): Promise<string> {
  const dir = join(h.appsDir, name);
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'resolver.sh');
  await writeFile(path, `#!/usr/bin/env bash\n${script}\n`);
  await chmod(path, 0o755);
  await h.writeRecipe(
    name,
    stringify({ name, strategy: { strategy: 'script', script_path: 'resolver.sh', ...strategy } }),
  );
  return dir;
}

/** Publishes one hub release with AppImage assets served by the sim; returns the asset URLs by name. */
export function publishHub(sim: Sim, repo: string, tag: string, names: string[]): Record<string, string> {
  const [owner = '', name = ''] = repo.split('/');
  const urls: Record<string, string> = {};
  for (const n of names)
    urls[n] = sim.putAsset(`/${repo}/releases/download/${tag}/${n}`, Buffer.from(`${repo} ${n}`));
  sim.hub.setLatest(owner, name, { tag, assets: names.map((n) => ({ name: n, url: urls[n] ?? '' })) });
  return urls;
}
