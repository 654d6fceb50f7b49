import { createHash } from 'node:crypto';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAppImage } from '../../fixtures/make-appimage.js';
import { startSim, type Sim, type SimReleaseAsset } from '../../sim/index.js';
import { CLI_PATH, runCli, type CliRun } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

/** One app of `update --json` (DESIGN 3 plus the documented extras). */
export interface AppJson {
  name: string;
  status: 'updated' | 'up_to_date' | 'rate_limited' | 'failed' | 'skipped';
  from_version: string | null;
  to_version: string | null;
  path: string | null;
  error: { code: string; message: string; hint?: string } | null;
  retry_at: string | null;
  reason?: string;
  url?: string;
  method?: string;
  bytes_downloaded?: number;
  warnings: string[];
}

/** The whole `update --json` document. */
export interface UpdateJson {
  command: string;
  apps: AppJson[];
  summary: { updated: number; up_to_date: number; rate_limited: number; failed: number; skipped: number };
}

/** The part of state.json these tests read. */
export interface StateJson {
  apps: Record<
    string,
    {
      installed?: { version: string; identity: string; file: string; sha256: string };
      previous?: { version: string; file: string };
      symlink?: string;
      lastError?: { code: string; message: string };
    }
  >;
}

/** Size of a segmented-eligible asset: over 2 x minSegmentBytes (4 MiB) with some margin. */
export const BIG_PAD_BYTES = 9 * 1024 * 1024;

const built = new Map<string, Promise<Buffer>>();
let scratch: Promise<string> | undefined;

function scratchDir(): Promise<string> {
  scratch ??= mkdtemp(join(tmpdir(), 'ak-e2e-fixtures-'));
  return scratch;
}

/**
 * A real AppImage whose runtime prints "<name> <version>", built once per test process and
 * cached (big ones too: they are built once per file and reused).
 */
export function appImage(
  name: string,
  version: string,
  opts: { arch?: 'x86_64' | 'aarch64'; padBytes?: number } = {},
): Promise<Buffer> {
  const key = `${name}|${version}|${opts.arch ?? 'x86_64'}|${opts.padBytes ?? 0}`;
  let p = built.get(key);
  if (!p) {
    p = (async () => {
      const dir = await scratchDir();
      const outFile = join(dir, `${built.size}-${name}-${version}.AppImage`);
      await makeAppImage({ outFile, name, version, arch: opts.arch ?? 'x86_64', padBytes: opts.padBytes });
      return readFile(outFile);
    })();
    built.set(key, p);
  }
  return p;
}

/** Removes the fixture scratch directory. */
export async function disposeFixtures(): Promise<void> {
  if (scratch) await rm(await scratch, { recursive: true, force: true });
  scratch = undefined;
  built.clear();
}

/** Hex SHA-256 of a buffer. */
export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Runs an installed AppImage (asynchronously: the sim shares this process) and returns its stdout. */
export function execInstalled(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, [], { timeout: 10_000 }, (err, stdout) =>
      err ? reject(new Error(`${file} failed`, { cause: err })) : resolve(stdout.trim()),
    );
  });
}

/** Names in `dir` that look like our temp files (`.appimage-keeper-<app>-…`), previous-version folder excluded. */
export async function tempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith('.appimage-keeper-') && n !== '.appimage-keeper-previous');
}

/** A sim shared by the tests of one file; homes are per test. */
export async function sharedSim(): Promise<Sim> {
  return startSim();
}

/** Options of one release published on the sim's hub. */
export interface PublishOptions {
  /** Asset file name (default `<app>-<version>-x86_64.AppImage`). */
  assetName?: string;
  /** Body (default: the app's real AppImage for that version). */
  body?: Buffer;
  /** `true` = the correct `sha256:` digest (default), a string = that digest, false = none. */
  digest?: boolean | string;
  /** More assets of the same release. */
  extra?: SimReleaseAsset[];
  contentType?: string;
}

/** Publishes `<version>` of `owner/app` (tag = version) with its asset under `/dl/<app>/`. */
export async function publish(
  sim: Sim,
  app: string,
  version: string,
  opts: PublishOptions = {},
): Promise<{ url: string; path: string; body: Buffer; assetName: string }> {
  const body = opts.body ?? (await appImage(app, version));
  const assetName = opts.assetName ?? `${app}-${version}-x86_64.AppImage`;
  const path = `/dl/${app}/${version}/${assetName}`;
  const url = sim.putAsset(path, body, opts.contentType ? { contentType: opts.contentType } : {});
  const digest =
    opts.digest === false
      ? undefined
      : typeof opts.digest === 'string'
        ? opts.digest
        : `sha256:${sha256(body)}`;
  sim.hub.setLatest('e2e', app, {
    tag: version,
    assets: [{ name: assetName, url, ...(digest ? { digest } : {}) }, ...(opts.extra ?? [])],
  });
  return { url, path, body, assetName };
}

/** A temp home configured against the sim, with helpers to write recipes and run `update`. */
export interface World {
  home: TmpHome;
  env: NodeJS.ProcessEnv;
  storageDir: string;
  symlinkDir: string;
  /** A forge recipe for `app` on the sim's hub, plus extra YAML lines. */
  forgeRecipe(app: string, extra?: string, glob?: string): Promise<void>;
  recipe(app: string, yaml: string): Promise<void>;
  update(args?: string[], timeoutMs?: number): Promise<CliRun<UpdateJson>>;
  cli(args: string[], timeoutMs?: number): Promise<CliRun>;
  state(): Promise<StateJson>;
  cleanup(): Promise<void>;
}

/** Creates a World whose config.yml points at `sim` (hub API and web base, no proxies). */
export async function makeWorld(sim: Sim, globalExtra = ''): Promise<World> {
  const home = await makeTmpHome();
  const storageDir = join(home.root, 'storage');
  const symlinkDir = join(home.root, 'bin');
  await mkdir(storageDir, { recursive: true });
  await home.writeConfig(
    [
      `storage_dir: ${storageDir}`,
      `symlink_dir: ${symlinkDir}`,
      `hub_release_api_url: ${sim.hubApiUrl}`,
      `hub_release_web_url: ${sim.url}`,
      'hub_proxy: false',
      'stall_timeout: 2',
      globalExtra,
      '',
    ].join('\n'),
  );
  // Nothing may reach a public host: the built-in proxy list is empty.
  const env = { ...home.env, APPIMAGE_KEEPER_PROXY_BUILTINS: '' };
  const cli = (args: string[], timeoutMs?: number): Promise<CliRun> =>
    runCli(args, { env, ...(timeoutMs ? { timeoutMs } : {}) });
  return {
    home,
    env,
    storageDir,
    symlinkDir,
    forgeRecipe: async (app, extra = '', glob = `${app}-*`) => {
      await home.writeRecipe(
        app,
        [
          `name: ${app}`,
          'strategy:',
          '  strategy: forge',
          `  repository: ${sim.url}/e2e/${app}`,
          `  asset_match: "${glob}"`,
          extra,
          '',
        ].join('\n'),
      );
    },
    recipe: async (app, yaml) => {
      await home.writeRecipe(app, yaml);
    },
    update: (args = [], timeoutMs) => runCli<UpdateJson>(['--json', 'update', ...args], { env, timeoutMs }),
    cli,
    state: async () =>
      JSON.parse(
        await readFile(join(home.stateDir, 'state.json'), 'utf8').catch(() => '{"apps":{}}'),
      ) as StateJson,
    cleanup: () => home.cleanup(),
  };
}

/** The outcome of `app` in an update document; fails the test when absent. */
export function appOf(run: CliRun<UpdateJson>, app: string): AppJson {
  const found = run.json?.apps.find((a) => a.name === app);
  if (!found) throw new Error(`no outcome for ${app} in ${run.stdout}\nstderr: ${run.stderr}`);
  return found;
}

/** Polls `probe` every 20 ms until it returns a value, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A CLI process started in the background, for tests that kill it or race it. */
export interface BackgroundCli {
  child: ChildProcess;
  /** Resolves when it exits, with what it printed. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts the built CLI without waiting for it (runCli waits; these tests need the pid). */
export function startCli(args: string[], env: NodeJS.ProcessEnv): BackgroundCli {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const done = new Promise<Awaited<BackgroundCli['done']>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}
