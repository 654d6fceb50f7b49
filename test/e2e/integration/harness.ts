/**
 * Shared pieces of the desktop-integration and `remove` end-to-end tests: real AppImages built with
 * mksquashfs, published on the in-process sim's hub, and the built CLI run in a temp home.
 */
import { execFile } from 'node:child_process';
import { lstat, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseElfHeader } from '../../../src/appimage/elf.js';
import type { Sim } from '../../../sim/index.js';
import { disposeFixtureAppImages } from '../../helpers/fixture-appimages.js';
import type { CliRun } from '../../helpers/run-cli.js';
import { useSimSuite, type SimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld } from '../../helpers/sim-world.js';
import type { TmpHome } from '../../helpers/tmp-home.js';
import type { UpdateJson } from '../../helpers/update-json.js';

/** One app of `remove --json`. */
export interface RemovedJson {
  name: string;
  status: 'removed' | 'not_installed' | 'incomplete';
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
      removedAt?: string;
    }
  >;
}

/** The integration record kept in state. */
export interface IntegrationJson {
  desktopId: string;
  desktopFile: string;
  icons: string[];
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
  // storage_dir is left for the CLI to create.
  const base = await makeSimWorld(sim, { configLines: globalExtra, createStorageDir: false });
  const { home } = base;
  return {
    home,
    env: base.env,
    storageDir: base.storageDir,
    symlinkDir: base.symlinkDir,
    applicationsDir: join(home.dataHome, 'applications'),
    hicolorDir: join(home.dataHome, 'icons', 'hicolor'),
    recipe: (app, extra = [], layout = 'folder') =>
      base.writeForgeRecipe(app, { glob: `${app}-*.AppImage`, extra, layout }),
    update: (args = []) => base.run<UpdateJson>(['--json', 'update', ...args]),
    remove: (args) => base.run<RemoveJson>(['--json', 'remove', ...args]),
    cli: (args) => base.run(args),
    state: () => base.readState<StateJson>('empty'),
  };
}

/** Registers the hooks of a test file: one sim, worlds on it (`world(globalExtra)`), fixtures dropped after. */
export function useIntegrationSuite(): SimSuite<World, [globalExtra?: string[]]> {
  return useSimSuite(makeWorld, disposeFixtureAppImages);
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
