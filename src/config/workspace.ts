import { KeeperError, toKeeperError, UsageError } from '../core/errors.js';
import { discoverRecipeFiles, type RecipeLocation, type SkippedEntry } from './discover.js';
import { loadConfig, loadSecrets, type LoadedConfig, type LoadedSecrets } from './load-config.js';
import { loadRecipe } from './load-recipe.js';
import type { Paths } from './paths.js';
import { findCollisions } from './file-collisions.js';
import { APP_NAME_RE } from './recipe-checks.js';
import { effectiveAppSettings, effectiveGlobal } from './settings.js';
import { tokenScopeWarnings } from './token-scope-warnings.js';
import { sameSourceWarnings } from './same-source-warnings.js';
import type { AppSettings, GlobalSettings } from './types.js';
import { ValidatedCache } from './validated-cache.js';
import { compareNames } from '../core/compare-names.js';
import type { EntryMemo, Finding } from '../core/root-only.js';

/** One recipe: its effective settings, or the reason it cannot be used (that app's failure). */
export type AppEntry =
  | { name: string; file: string; ok: true; settings: AppSettings }
  | { name: string; file: string; ok: false; error: KeeperError };

/** Everything loaded from the config directory for one run. */
export interface Workspace {
  paths: Paths;
  config: LoadedConfig;
  secrets: LoadedSecrets;
  global: GlobalSettings;
  apps: AppEntry[];
  warnings: string[];
  /** Files and folders below `apps/` that were not read as recipes, with the reason. */
  skipped: SkippedEntry[];
  /**
   * `--system`: what lets someone other than root change a recipe or its resolver script, judged
   * through every link and folder above it (those apps are refused with SYSTEM_CONFIG_UNSAFE).
   */
  notRootOnly: Finding[];
}

/**
 * Loads config.yml, secrets.yml and every recipe. A broken config.yml or secrets.yml throws (exit 2);
 * a broken recipe becomes that app's failed entry and never stops the others.
 */
export async function loadWorkspace(paths: Paths, processEnv: NodeJS.ProcessEnv): Promise<Workspace> {
  // Read once: each read of process.env asks the C library, and every recipe reads the token
  // variables and HOME again.
  const env: NodeJS.ProcessEnv = { ...processEnv };
  const cache = ValidatedCache.open(paths.cacheDir);
  const config = await loadConfig(paths, cache);
  const secrets = await loadSecrets(paths, cache);
  const global = effectiveGlobal(config.values, paths, env);
  const warnings = [...secrets.warnings];
  const { recipes: locations, skipped } = discoverRecipeFiles(paths.appsDir);
  // One recipe after another: each one's intermediate values (text, parsed YAML, checks) die young.
  // Loading them all at once kept every recipe's in flight across collections, which cost about
  // as much as the loading itself (a recipe never waits on I/O: its read is synchronous).
  const apps: AppEntry[] = [];
  const notRootOnly: Finding[] = [];
  // Root acts on what a system recipe says: loaded only for that layout (user start-up is measured).
  const guard = paths.layout === 'system' ? await rootOnlyGuard(notRootOnly) : undefined;
  for (const loc of locations) apps.push(await loadEntry(loc, global, env, secrets.hubToken, cache, guard));
  await cache.save();
  markDuplicates(apps);
  const tokenFromFile = apps.some((a) => a.ok && a.settings.token?.source === 'config.yml');
  if (tokenFromFile) {
    warnings.push(
      'hub_token is set in config.yml or a recipe; move it to secrets.yml (chmod 600) or HUB_TOKEN',
    );
  }
  apps.sort((a, b) => compareNames(a.name, b.name) || compareNames(a.file, b.file));
  warnings.push(...tokenScopeWarnings(apps, global), ...sameSourceWarnings(apps));
  return { paths, config, secrets, global, apps, warnings, skipped, notRootOnly };
}

/** Throws SYSTEM_CONFIG_UNSAFE when someone other than root could change `path`, keeping what it found. */
type RootOnlyGuard = (path: string) => void;

async function rootOnlyGuard(found: Finding[]): Promise<RootOnlyGuard> {
  const { notRootOnlyError, rootOnlyFindings } = await import('../core/root-only.js');
  // The folders above every recipe (/, /etc, …) are read once for the whole load.
  const memo: EntryMemo = new Map();
  return (path) => {
    const findings = rootOnlyFindings(path, memo);
    if (findings.length === 0) return;
    found.push(...findings);
    throw notRootOnlyError(findings);
  };
}

// One recipe's entry: its settings, or why it cannot be used. Under `guard`, a recipe file is
// judged before it is read, and its resolver script before the app is usable.
async function loadEntry(
  loc: RecipeLocation,
  global: GlobalSettings,
  env: NodeJS.ProcessEnv,
  secretsToken: string | undefined,
  cache: ValidatedCache,
  guard: RootOnlyGuard | undefined,
): Promise<AppEntry> {
  const seen: { name?: string } = {};
  try {
    guard?.(loc.file);
    const recipe = await loadRecipe(loc, seen, cache);
    const settings = effectiveAppSettings({
      global,
      recipe: recipe.values,
      recipeFile: loc.file,
      recipeDir: loc.dir,
      env,
      secretsToken,
    });
    if (settings.strategy.strategy === 'script') guard?.(settings.strategy.script_path);
    return { name: settings.name, file: loc.file, ok: true, settings };
  } catch (err) {
    // An invalid recipe is still known by its `name:` when that could be read.
    return { name: seen.name ?? loc.id, file: loc.file, ok: false, error: toKeeperError(err) };
  }
}

// Two recipes must never write the same file, symlink or desktop entry.
function markDuplicates(apps: AppEntry[]): void {
  for (const { index, others } of findCollisions(apps)) {
    const app = apps[index];
    // A recipe that already failed keeps its own error; the valid one names it.
    if (!app?.ok) continue;
    apps[index] = {
      name: app.name,
      file: app.file,
      ok: false,
      error: new KeeperError(
        'RECIPE_DUPLICATE',
        `${app.file}: app "${app.name}" would use the same name or file as ${listFiles(others)}`,
        { hint: 'give each recipe a distinct name, or a naming_format that contains {name}' },
      ),
    };
  }
}

function listFiles(files: string[]): string {
  return files.length <= 3
    ? files.join(', ')
    : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
}

/**
 * Fails with UNKNOWN_APP (exit 2) unless every name is in `known`; the hint lists the known apps.
 */
export function assertKnownNames(names: readonly string[], known: readonly string[], appsDir: string): void {
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length === 0) return;
  throw new UsageError('UNKNOWN_APP', `unknown app${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
    hint: known.length ? `known apps: ${[...known].sort().join(', ')}` : `no recipes in ${appsDir}`,
  });
}

/** Picks the apps named on the command line (all when none); an unknown name is a usage error. */
export function selectApps(ws: Workspace, names: readonly string[]): AppEntry[] {
  if (names.length === 0) return ws.apps;
  assertKnownNames(
    names,
    ws.apps.map((a) => a.name),
    ws.paths.appsDir,
  );
  return ws.apps.filter((a) => names.includes(a.name));
}

/** True when `name` is usable as an app name (for `init --app`). */
export function isValidAppName(name: string): boolean {
  return APP_NAME_RE.test(name);
}
