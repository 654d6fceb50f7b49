/**
 * Hand-written checks of the commonest recipe shape, for start-up time: a `name`, a forge `strategy`
 * with the usual fields, and any of the recipe's own simple fields or the global fields it may
 * override (their checks: plain-config.ts). For such a recipe it answers exactly the values
 * the zod recipe schema (schema.ts) yields, in the same key order; on anything else or any doubt
 * it answers undefined and the caller runs the schema, so every message about a recipe still comes
 * from zod. Cold zod parsing (its checks compiled per schema on first use) costs most of what
 * validating a few hundred recipes does. test/config/plain-recipe.test.ts compares the two.
 */
import { ENV_NAME, FINGERPRINT, isRepositoryUrl } from './field-rules.js';
import { DOUBT, httpUrl, PLAIN_CHECKS, type PlainCheck } from './plain-config.js';
import { normaliseFingerprint, RECIPE_KEYS, STRATEGY_KEYS } from './recipe-fields.js';
import { checkUrlField } from './url-field.js';

// Output order of the forge strategy, as zod yields it: the schema's key order (a test keeps them equal).
const FORGE_KEYS = STRATEGY_KEYS.forge ?? [];
const NON_EMPTY_KEYS = new Set(['asset_match', 'asset_match_regex', 'inner_asset_match']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

// The repository as forgeStrategySchema yields it (trimmed), or undefined when zod might refuse it.
function repository(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const url = checkUrlField(value);
  if (!(url instanceof URL)) return undefined;
  return isRepositoryUrl(url) ? value.trim() : undefined;
}

// One optional forge field as the schema yields it; undefined when zod might refuse it.
function forgeValue(key: string, value: unknown): unknown {
  if (NON_EMPTY_KEYS.has(key)) return typeof value === 'string' && value.length > 0 ? value : undefined;
  if (key === 'prerelease') return typeof value === 'boolean' || value === 'only' ? value : undefined;
  if (key === 'tag' && typeof value === 'string' && value.trim().length > 0) return value.trim();
  return undefined;
}

function forgeStrategy(value: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(value) || value.strategy !== 'forge') return undefined;
  const known = new Set<string>(FORGE_KEYS);
  if (Object.keys(value).some((k) => !known.has(k))) return undefined;
  const repo = repository(value.repository);
  if (repo === undefined) return undefined;
  const out: Record<string, unknown> = { strategy: 'forge', repository: repo };
  for (const key of FORGE_KEYS.slice(2)) {
    if (!Object.hasOwn(value, key)) continue;
    const v = forgeValue(key, value[key]);
    if (v === undefined) return undefined;
    out[key] = v;
  }
  return out;
}

const RECIPE_KEY_SET = new Set(RECIPE_KEYS);

// The recipe's own fields besides name and strategy, as recipe-fields.ts declares them.
const RECIPE_CHECKS: Readonly<Record<string, PlainCheck>> = {
  ignore: (v) => (typeof v === 'boolean' ? v : DOUBT),
  inner_asset_match: (v) => (typeof v === 'string' && v.length > 0 ? v : DOUBT),
  zsync: (v) => (typeof v === 'boolean' || v === 'auto' ? v : httpUrl(v)),
  signing_key: (v) => {
    if (typeof v !== 'string') return DOUBT;
    const fingerprint = normaliseFingerprint(v);
    return FINGERPRINT.test(fingerprint) ? fingerprint : DOUBT;
  },
  desktop_exec_args: (v) => (Array.isArray(v) && v.every((a) => typeof a === 'string') ? [...v] : DOUBT),
  desktop_env: (v) => {
    if (!isPlainObject(v)) return DOUBT;
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(v)) {
      if (!ENV_NAME.test(key)) return DOUBT;
      if (typeof value === 'string' || typeof value === 'boolean') out[key] = String(value);
      else if (typeof value === 'number' && Number.isFinite(value)) out[key] = String(value);
      else return DOUBT;
    }
    return out;
  },
};

/**
 * The values the recipe schema yields for `data` (aliases already normalised, config.yml-only
 * fields already taken out) when it certainly accepts them: a `name`, a forge `strategy`, and
 * fields with a check here or in plain-config.ts; undefined otherwise. Keys come out in the
 * schema's order, as zod yields them; an empty field (`key:`) is "not set".
 */
export function plainRecipeValues(data: Record<string, unknown>): Record<string, unknown> | undefined {
  if (typeof data.name !== 'string') return undefined;
  const strategy = forgeStrategy(data.strategy);
  if (!strategy) return undefined;
  const checks: Record<string, PlainCheck | undefined> = {};
  for (const key of Object.keys(data)) {
    if (key === 'name' || key === 'strategy') continue;
    // A field only config.yml reads is not a recipe key: the schema refuses it.
    if (!RECIPE_KEY_SET.has(key)) return undefined;
    const check = Object.hasOwn(RECIPE_CHECKS, key)
      ? RECIPE_CHECKS[key]
      : Object.hasOwn(PLAIN_CHECKS, key)
        ? PLAIN_CHECKS[key]
        : undefined;
    if (!check) return undefined;
    checks[key] = check;
  }
  const out: Record<string, unknown> = {};
  for (const key of RECIPE_KEYS) {
    if (!Object.hasOwn(data, key)) continue;
    if (key === 'name') out.name = data.name;
    else if (key === 'strategy') out.strategy = strategy;
    else if (data[key] === null) out[key] = undefined;
    else {
      const value = checks[key]?.(data[key]) ?? DOUBT;
      if (value === DOUBT) return undefined;
      out[key] = value;
    }
  }
  return out;
}
