import { isAbsolute, resolve } from 'node:path';
import { defaultGlobalValues } from './fields.js';
import { hubApiBase, sameApiBase } from './hub-api-base.js';
import { expandHome, type Paths } from './paths.js';
import { resolveScriptPath } from './recipe-checks.js';
import type { AppSettings, GlobalSettings, StrategyConfig, TokenSource } from './types.js';

const PATH_FIELDS = ['storage_dir', 'symlink_dir'] as const;

/** Expands `~`/`$HOME` and resolves a relative path against the file that set it. */
function expandPath(value: string, baseDir: string, env: NodeJS.ProcessEnv): string {
  const expanded = expandHome(value, env);
  return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

/** Global settings: defaults (the layout's, then the fields'), overlaid with config.yml, paths expanded. */
export function effectiveGlobal(
  configValues: Record<string, unknown>,
  paths: Pick<Paths, 'configDir' | 'fieldDefaults'>,
  env: NodeJS.ProcessEnv,
): GlobalSettings {
  const { configDir } = paths;
  const merged = { ...defaultGlobalValues(), ...paths.fieldDefaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(configValues)) if (value !== undefined) merged[key] = value;
  for (const key of PATH_FIELDS) merged[key] = expandPath(String(merged[key]), configDir, env);
  if (typeof merged.ca_file === 'string') merged.ca_file = expandPath(merged.ca_file, configDir, env);
  // A fresh literal copy: built key by key, `merged` is a slow dictionary object for V8, and every
  // recipe's settings start as a copy of this one (a copy of a fast object costs a quarter).
  return { ...merged } as unknown as GlobalSettings;
}

/** Where the hub token comes from: env, then secrets.yml, then the recipe, then config.yml. */
export function pickToken(
  env: NodeJS.ProcessEnv,
  secretsToken: string | undefined,
  recipeToken: string | undefined,
  configToken: string | undefined,
): { value: string; source: TokenSource } | undefined {
  for (const name of ['HUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN'] as const) {
    const v = env[name]?.trim();
    if (v) return { value: v, source: `env:${name}` };
  }
  if (secretsToken) return { value: secretsToken, source: 'secrets.yml' };
  if (recipeToken) return { value: recipeToken, source: 'config.yml' };
  if (configToken) return { value: configToken, source: 'config.yml' };
  return undefined;
}

/**
 * The one function that yields an app's effective settings: defaults, then config.yml, then the
 * recipe's own values (which always win), with paths expanded and the token chosen.
 */
export function effectiveAppSettings(input: {
  global: GlobalSettings;
  recipe: Record<string, unknown>;
  recipeFile: string;
  recipeDir: string;
  env: NodeJS.ProcessEnv;
  secretsToken: string | undefined;
}): AppSettings {
  const { global, recipe, recipeDir, env } = input;
  const merged: Record<string, unknown> = { ...appTemplate(global) };
  for (const key in recipe) {
    const value = recipe[key];
    if (value !== undefined) merged[key] = value;
  }
  for (const key of PATH_FIELDS) {
    const value = recipe[key];
    if (typeof value === 'string') merged[key] = expandPath(value, recipeDir, env);
  }
  const strategy = { ...(recipe.strategy as StrategyConfig) };
  if (strategy.strategy === 'script')
    strategy.script_path = resolveScriptPath(strategy.script_path, recipeDir);
  if (
    strategy.strategy === 'forge' &&
    strategy.inner_asset_match === undefined &&
    typeof recipe.inner_asset_match === 'string'
  ) {
    strategy.inner_asset_match = recipe.inner_asset_match;
  }
  const recipeToken = recipe.hub_token as string | undefined;
  const sharedToken = pickToken(env, input.secretsToken, recipeToken, global.hub_token);
  // The shared token (environment, secrets.yml, config.yml) belongs to the API base config.yml
  // names; a recipe that moves the hub API elsewhere gets only a token it names itself.
  const ownBase = !sameApiBase(hubApiBase(merged), hubApiBase(global));
  const token = ownBase
    ? recipeToken
      ? { value: recipeToken, source: 'config.yml' as const }
      : undefined
    : sharedToken;
  const tokenWithheld = ownBase && !recipeToken ? sharedToken?.source : undefined;
  // Filled in place: the template already has these keys, so no property is added.
  const app = merged as unknown as AppSettings;
  app.name = String(recipe.name);
  app.strategy = strategy;
  app.ignore = recipe.ignore === true;
  app.zsync = (recipe.zsync as AppSettings['zsync'] | undefined) ?? false;
  app.desktop_exec_args = (recipe.desktop_exec_args as string[] | undefined) ?? [];
  app.desktop_env = (recipe.desktop_env as Record<string, string> | undefined) ?? {};
  app.signing_key = recipe.signing_key as string | undefined;
  app.recipeFile = input.recipeFile;
  app.recipeDir = recipeDir;
  app.token = token;
  app.tokenWithheld = tokenWithheld;
  return app;
}

// The global settings plus every key effectiveAppSettings adds, as one fast object per global
// settings: each recipe's settings start as a copy of it. Adding eleven keys to a copy of the
// global settings, recipe after recipe, cost fifteen times as much as copying an object that
// has them all (V8 gives each copy a map of its own, so no addition is ever cached).
const templates = new WeakMap<GlobalSettings, Record<string, unknown>>();
function appTemplate(global: GlobalSettings): Record<string, unknown> {
  let template = templates.get(global);
  if (!template) {
    template = {
      ...global,
      name: undefined,
      strategy: undefined,
      ignore: undefined,
      zsync: undefined,
      desktop_exec_args: undefined,
      desktop_env: undefined,
      signing_key: undefined,
      recipeFile: undefined,
      recipeDir: undefined,
      token: undefined,
      tokenWithheld: undefined,
    };
    templates.set(global, template);
  }
  return template;
}
