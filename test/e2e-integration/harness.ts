/**
 * Shared pieces of the desktop-integration and `remove` end-to-end tests: real AppImages built with
 * mksquashfs, published on the in-process sim's hub, and the built CLI run in a temp home.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { makeAppImage, type MakeAppImageOptions } from '../../fixtures/make-appimage.js';
import { parseElfHeader } from '../../src/appimage/elf.js';
import { startSim, type Sim } from '../../sim/index.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

/** One app of `update --json`. */
export interface AppJson {
  name: string;
  status: 'updated' | 'up_to_date' | 'rate_limited' | 'failed' | 'skipped';
  from_version: string | null;
  to_version: string | null;
  path: string | null;
  error: { code: string; message: string; hint?: string } | null;
  warnings: string[];
}

/** The `update --json` document. */
export interface UpdateJson {
  command: string;
  apps: AppJson[];
  summary: Record<string, number>;
}

/** One app of `remove --json`. */
export interface RemovedJson {
  name: string;
  removed: string[];
  missing: string[];
  skipped: string[];
  errors: string[];
  purged_recipe: string | null;
}

/** The `remove --json` document. */
export interface RemoveJson {
  command: 'remove';
  apps: RemovedJson[];
  temp_files_removed: string[];
  error?: { code: string; message: string };
}

/** The part of state.json these tests read. */
export interface StateJson {
  apps: Record<
    string,
    {
      installed?: { version: string; file: string };
      previous?: { version: string; file: string; integration?: IntegrationJson };
      integration?: IntegrationJson;
      symlink?: string;
    }
  >;
}

/** The integration record kept in state. */
export interface IntegrationJson {
  desktopId: string;
  desktopFile: string;
  icons: string[];
}

/** Options of one fixture AppImage (a subset of makeAppImage's, without the output file). */
export type FixtureOptions = Omit<MakeAppImageOptions, 'outFile' | 'name' | 'version'>;

const built = new Map<string, Promise<Buffer>>();
let scratch: Promise<string> | undefined;

/** A real AppImage of `name` `version`; built once per test process for each distinct option set. */
export function appImage(name: string, version: string, opts: FixtureOptions = {}): Promise<Buffer> {
  const key = JSON.stringify([name, version, opts]);
  let p = built.get(key);
  if (!p) {
    p = (async () => {
      scratch ??= mkdtemp(join(tmpdir(), 'ak-e2e-integ-'));
      const outFile = join(await scratch, `${built.size}-${name}-${version}.AppImage`);
      await makeAppImage({ ...opts, outFile, name, version });
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

/**
 * A copy of a real AppImage whose SquashFS is damaged after its superblock: ELF header, AppImage
 * magic and SquashFS magic stay valid, so it passes verification and only integration fails.
 */
export function corruptSquashfs(image: Buffer): Buffer {
  const copy = Buffer.from(image);
  const offset = parseElfHeader(copy).payloadOffset;
  if (copy.toString('latin1', offset, offset + 4) !== 'hsqs') throw new Error('no SquashFS in fixture');
  copy.fill(0xa5, offset + 96);
  return copy;
}

/** Hex SHA-256. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Publishes `version` of hub repository `e2e/<app>` with one asset (its correct digest attached). */
export function publish(sim: Sim, app: string, version: string, body: Buffer): string {
  const assetName = `${app}-${version}-x86_64.AppImage`;
  const url = sim.putAsset(`/dl/${app}/${version}/${assetName}`, body);
  sim.hub.setLatest('e2e', app, {
    tag: version,
    assets: [{ name: assetName, url, digest: `sha256:${sha256(body)}` }],
  });
  return url;
}

/** A temp home configured against a sim, with helpers to write recipes and run the CLI. */
export interface World {
  home: TmpHome;
  env: NodeJS.ProcessEnv;
  storageDir: string;
  symlinkDir: string;
  applicationsDir: string;
  hicolorDir: string;
  /** Writes a forge recipe for `app` (repository `e2e/<app>` on the sim) plus extra YAML lines. */
  recipe(app: string, extra?: string[], layout?: 'folder' | 'flat'): Promise<string>;
  update(args?: string[]): Promise<CliRun<UpdateJson>>;
  remove(args: string[]): Promise<CliRun<RemoveJson>>;
  cli(args: string[]): Promise<CliRun>;
  state(): Promise<StateJson>;
}

/** Creates a World whose config.yml points at `sim` (no proxies) with extra global YAML lines. */
export async function makeWorld(sim: Sim, globalExtra: string[] = []): Promise<World> {
  const home = await makeTmpHome();
  const storageDir = join(home.root, 'storage');
  const symlinkDir = join(home.root, 'bin');
  await home.writeConfig(
    [
      `storage_dir: ${storageDir}`,
      `symlink_dir: ${symlinkDir}`,
      `hub_release_api_url: ${sim.hubApiUrl}`,
      `hub_release_web_url: ${sim.url}`,
      'hub_proxy: false',
      ...globalExtra,
      '',
    ].join('\n'),
  );
  // Never reach a public host: the built-in proxy list is empty.
  const env = { ...home.env, APPIMAGE_KEEPER_PROXY_BUILTINS: '' };
  return {
    home,
    env,
    storageDir,
    symlinkDir,
    applicationsDir: join(home.dataHome, 'applications'),
    hicolorDir: join(home.dataHome, 'icons', 'hicolor'),
    recipe: (app, extra = [], layout = 'folder') =>
      home.writeRecipe(
        app,
        [
          `name: ${app}`,
          'strategy:',
          '  strategy: forge',
          `  repository: ${sim.url}/e2e/${app}`,
          `  asset_match: "${app}-*.AppImage"`,
          ...extra,
          '',
        ].join('\n'),
        layout,
      ),
    update: (args = []) => runCli<UpdateJson>(['--json', 'update', ...args], { env }),
    remove: (args) => runCli<RemoveJson>(['--json', 'remove', ...args], { env }),
    cli: (args) => runCli(args, { env }),
    state: async () =>
      JSON.parse(
        await readFile(join(home.stateDir, 'state.json'), 'utf8').catch(() => '{"apps":{}}'),
      ) as StateJson,
  };
}

/** A sim for one test file plus the worlds it made; `stop()` cleans everything. */
export interface Suite {
  sim: Sim;
  world(globalExtra?: string[]): Promise<World>;
  stop(): Promise<void>;
}

/** Starts a sim for one test file. */
export async function startSuite(): Promise<Suite> {
  const sim = await startSim();
  const worlds: World[] = [];
  return {
    sim,
    async world(globalExtra) {
      const w = await makeWorld(sim, globalExtra);
      worlds.push(w);
      return w;
    },
    async stop() {
      await sim.stop();
      await Promise.all(worlds.map((w) => w.home.cleanup()));
      await disposeFixtures();
    },
  };
}

/** The outcome of `app` in an update document; fails when absent. */
export function appOf(run: CliRun<UpdateJson>, app: string): AppJson {
  const found = run.json?.apps.find((a) => a.name === app);
  if (!found) throw new Error(`no outcome for ${app} in ${run.stdout}\nstderr: ${run.stderr}`);
  return found;
}

/** The removal report of `app`; fails when absent. */
export function removedOf(run: CliRun<RemoveJson>, app: string): RemovedJson {
  const found = run.json?.apps.find((a) => a.name === app);
  if (!found) throw new Error(`no removal of ${app} in ${run.stdout}\nstderr: ${run.stderr}`);
  return found;
}

/**
 * A full recursive listing of `dirs` (relative to `base`): type, size and SHA-256 of files, targets
 * of symlinks, and every directory, so two snapshots differ when anything under them changed.
 */
export async function snapshot(base: string, dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const st = await lstat(path).catch(() => undefined);
    const rel = relative(base, path);
    if (!st) return;
    if (st.isSymbolicLink()) out.push(`link ${rel} -> ${await readlink(path)}`);
    else if (st.isDirectory()) {
      out.push(`dir  ${rel}`);
      for (const e of (await readdir(path)).sort()) await walk(join(path, e));
    } else out.push(`file ${rel} ${st.size} ${sha256(await readFile(path))}`);
  };
  for (const d of dirs) await walk(d);
  return out;
}

/** Puts some user files of the kind a real home has into a directory tree. */
export async function seedUserFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
  }
}

/** A parsed desktop file: group name → key → raw value (enough for the assertions here). */
export type DesktopGroups = Map<string, Map<string, string>>;

/** Parses desktop entry text into groups (comments and blank lines dropped). */
export function parseDesktop(text: string): DesktopGroups {
  const groups: DesktopGroups = new Map();
  let current: Map<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = new Map();
      groups.set(header[1] ?? '', current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0 && current) current.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return groups;
}

/** Reads and parses a desktop file. */
export async function readDesktop(path: string): Promise<DesktopGroups> {
  return parseDesktop(await readFile(path, 'utf8'));
}

/** One key of one group; fails the test when absent. */
export function key(groups: DesktopGroups, group: string, name: string): string {
  const v = groups.get(group)?.get(name);
  if (v === undefined) throw new Error(`[${group}] ${name} missing`);
  return v;
}

/** Runs `desktop-file-validate` on a file (asynchronously: the sim shares this process). */
export function desktopFileValidate(path: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile('desktop-file-validate', [path], { timeout: 10_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        reject(new Error(`cannot run desktop-file-validate: ${err.message}`, { cause: err }));
        return;
      }
      resolve({ code: err ? Number(err.code) : 0, output: `${stdout}${stderr}`.trim() });
    });
  });
}

/** Files directly inside `dir` (empty when it does not exist). */
export async function listDir(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

/** True when `path` exists (without following a final symlink). */
export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}
