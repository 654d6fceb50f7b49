/**
 * A temp home whose config.yml points the hub at the in-process sim, with forge recipes for
 * repositories `e2e/<app>` and the built CLI run in it: the common base of the end-to-end worlds.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServedCatalogues, Sim } from '../../sim/index.js';
import { runCli, type CliRun } from './run-cli.js';
import { makeSimHome } from './sim-home.js';
import type { TmpHome } from './tmp-home.js';

/** Options of a forge recipe written by `SimWorld.writeForgeRecipe`. */
export interface ForgeRecipeOptions {
  /** `asset_match` (default `<app>-*`). */
  glob?: string;
  /** More YAML lines after the strategy block (top-level or indented into it). */
  extra?: string[];
  layout?: 'folder' | 'flat';
}

/** The base world: home, env without any public proxy base, storage and symlink dirs. */
export interface SimWorld {
  home: TmpHome;
  env: NodeJS.ProcessEnv;
  storageDir: string;
  symlinkDir: string;
  /** Writes the forge recipe of `app` (repository `e2e/<app>` on the sim); returns its path. */
  writeForgeRecipe(app: string, opts?: ForgeRecipeOptions): Promise<string>;
  /** Runs the built CLI in this world. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as runCli: any JSON document
  run<T = any>(args: string[], timeoutMs?: number): Promise<CliRun<T>>;
  /** Parses state.json; `missing: 'empty'` reads a missing file as `{"apps":{}}`, else it throws. */
  readState<T>(missing: 'empty' | 'throw'): Promise<T>;
}

/** Options of `makeSimWorld`. */
export interface SimWorldOptions {
  /** More config.yml lines after the common ones. */
  configLines?: string[];
  /** Create storage_dir up front (default true); false leaves that to the CLI. */
  createStorageDir?: boolean;
  /** Run this build of the CLI instead of dist/ (and add these variables to its environment). */
  cli?: { path: string; env?: NodeJS.ProcessEnv } | undefined;
}

/** Creates a world on a home from `makeSimHome` (test/helpers/sim-home.ts), running the built CLI. */
export async function makeSimWorld(sim: Sim, opts: SimWorldOptions = {}): Promise<SimWorld> {
  const base = await makeSimHome(sim, opts.configLines, opts.createStorageDir !== false);
  const { home, storageDir, symlinkDir } = base;
  const env = { ...base.env, ...opts.cli?.env };
  const cliPath = opts.cli ? { cliPath: opts.cli.path } : {};
  return {
    home,
    env,
    storageDir,
    symlinkDir,
    writeForgeRecipe: (app, recipe = {}) =>
      home.writeRecipe(
        app,
        [
          `name: ${app}`,
          'strategy:',
          '  strategy: forge',
          `  repository: ${sim.url}/e2e/${app}`,
          `  asset_match: "${recipe.glob ?? `${app}-*`}"`,
          ...(recipe.extra ?? []),
          '',
        ].join('\n'),
        recipe.layout,
      ),
    run: (args, timeoutMs) => runCli(args, { env, ...cliPath, ...(timeoutMs ? { timeoutMs } : {}) }),
    readState: async <T>(missing: 'empty' | 'throw') => {
      const file = join(home.stateDir, 'state.json');
      const text =
        missing === 'empty'
          ? await readFile(file, 'utf8').catch(() => '{"apps":{}}')
          : await readFile(file, 'utf8');
      return JSON.parse(text) as T;
    },
  };
}

/** config.yml lines that read the sim's served catalogues `kinds`, in that order, each with its format. */
export function catalogueLines(
  served: ServedCatalogues,
  kinds: readonly (keyof ServedCatalogues)[],
): string[] {
  const format = { hub: 'appimagehub', am: 'am', keeper: 'keeper' } as const;
  return ['catalogues:', ...kinds.map((k) => `  - { url: "${served[k]}", format: ${format[k]} }`)];
}
