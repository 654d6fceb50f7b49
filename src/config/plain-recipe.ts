/**
 * Hand-written checks of the commonest recipe shape, for start-up time: a `name` and a forge
 * `strategy` with the usual fields, nothing else. For such a recipe it answers exactly the values
 * the zod recipe schema (schema.ts) yields, in the same key order; on anything else or any doubt
 * it answers undefined and the caller runs the schema, so every message about a recipe still comes
 * from zod. Cold zod parsing (its checks compiled per schema on first use) costs most of what
 * validating a few hundred recipes does. test/config/plain-recipe.test.ts compares the two.
 */
import { STRATEGY_KEYS } from './recipe-fields.js';
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
  return url.pathname.split('/').filter(Boolean).length >= 2 ? value.trim() : undefined;
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

/**
 * The values the recipe schema yields for `data` (aliases already normalised) when it is a
 * `name` plus a forge `strategy` the schema certainly accepts; undefined otherwise.
 */
export function plainRecipeValues(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(data);
  if (keys.length !== 2 || !Object.hasOwn(data, 'name') || !Object.hasOwn(data, 'strategy')) return undefined;
  if (typeof data.name !== 'string') return undefined;
  const strategy = forgeStrategy(data.strategy);
  return strategy && { name: data.name, strategy };
}
