/**
 * Everything known about one app for `info`: its recipe file, every effective setting with where it
 * came from, its whole state entry, and the rate-limit windows that hold it back. Read-only: no
 * lock, no network.
 */
import { aliasMap, GLOBAL_FIELDS } from '../config/fields.js';
import { RECIPE_FIELDS } from '../config/recipe-fields.js';
import type { AppEntry, Workspace } from '../config/workspace.js';
import { readYamlFile } from '../config/yaml-file.js';
import type { KeeperError } from '../core/errors.js';
import type { StateStore } from '../state/store.js';
import type { AppState } from '../state/types.js';
import { appKey } from '../sources/forge/rate-limit.js';

/** Where an effective value came from. */
export type SettingSource = 'default' | 'config.yml' | 'recipe';

/** One effective setting. */
export interface SettingInfo {
  key: string;
  value: unknown;
  source: SettingSource;
}

/** An open rate-limit window that applies to the app (with the URL and host that opened it). */
export interface RateLimitInfo {
  key: string;
  until: string;
  message: string;
  url?: string | undefined;
  host?: string | undefined;
}

/** The `info` document for one app. */
export interface AppInfo {
  name: string;
  recipe: {
    file: string;
    valid: boolean;
    error?: KeeperError | undefined;
  } | null;
  settings: SettingInfo[];
  token: { source: string } | null;
  state: AppState | null;
  rateLimits: RateLimitInfo[];
}

const SKIP_KEYS = new Set(['name', 'recipeFile', 'recipeDir', 'token', 'hub_token']);

/** Builds the `info` document; the app must have a recipe or a state entry. */
export async function appInfo(ws: Workspace, store: StateStore, name: string, now: Date): Promise<AppInfo> {
  const entry = ws.apps.find((a) => a.name === name);
  const state = store.app(name) ?? null;
  const settings = entry?.ok ? await settingsWithSources(ws, entry) : [];
  return {
    name,
    recipe: entry ? { file: entry.file, valid: entry.ok, error: entry.ok ? undefined : entry.error } : null,
    settings,
    token: entry?.ok && entry.settings.token ? { source: entry.settings.token.source } : null,
    state,
    rateLimits: rateLimitsFor(store, name, now),
  };
}

async function settingsWithSources(
  ws: Workspace,
  entry: Extract<AppEntry, { ok: true }>,
): Promise<SettingInfo[]> {
  const recipeKeys = await recipeTopKeys(entry.file);
  const fromConfig = new Set(
    Object.entries(ws.config.values)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k),
  );
  const source = (key: string): SettingSource =>
    recipeKeys.has(key) ? 'recipe' : fromConfig.has(key) ? 'config.yml' : 'default';
  const s = entry.settings as unknown as Record<string, unknown>;
  const keys = [...GLOBAL_FIELDS.map((f) => f.key as string), ...RECIPE_FIELDS.map((f) => f.key)];
  const out: SettingInfo[] = [];
  for (const key of keys) {
    if (SKIP_KEYS.has(key)) continue;
    if (key === 'inner_asset_match') continue; // part of the strategy block once loaded
    const value = key === 'strategy' ? entry.settings.strategy : s[key];
    if (value === undefined) continue;
    const src =
      key === 'strategy'
        ? 'recipe'
        : RECIPE_FIELDS.some((f) => f.key === key)
          ? recipeOnly(key)
          : source(key);
    out.push({ key, value, source: src });
  }
  return out;

  function recipeOnly(key: string): SettingSource {
    return recipeKeys.has(key) ? 'recipe' : 'default';
  }
}

// The recipe's own top-level keys, branded aliases mapped to their canonical names.
async function recipeTopKeys(file: string): Promise<Set<string>> {
  const aliases = aliasMap(GLOBAL_FIELDS);
  try {
    const y = await readYamlFile(file);
    const data = y.data && typeof y.data === 'object' ? (y.data as Record<string, unknown>) : {};
    return new Set(
      Object.entries(data)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k]) => aliases.get(k) ?? k),
    );
  } catch {
    return new Set();
  }
}

function rateLimitsFor(store: StateStore, name: string, now: Date): RateLimitInfo[] {
  const key = appKey(name);
  const w = store.getRateLimit(key);
  return w && Date.parse(w.until) > now.getTime() ? [{ ...w, key }] : [];
}
