import { firstControlChar } from '../core/control-chars.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { RecipeLocation } from './discover.js';
import { aliasMap, GLOBAL_FIELDS } from './fields.js';
import { expectMapping, secretRanges } from './load-config.js';
import { placeholderIssues } from './placeholders.js';
import { checkRecipe } from './recipe-checks.js';
import { RECIPE_KEYS, STRATEGY_KEYS } from './recipe-fields.js';
import { aliasSpellings, normalizeAliases, zodIssues } from './validate-yaml.js';
import { strategyAlias } from './strategy-aliases.js';
import type { ValidatedCache } from './validated-cache.js';
import { issueAt, parseYamlText, readYamlText, type YamlFile } from './yaml-file.js';

const RECIPE_ALIASES = aliasMap(GLOBAL_FIELDS);
const ALL_RECIPE_KEYS = [...RECIPE_KEYS, ...RECIPE_ALIASES.keys()];
const GLOBAL_ONLY_KEYS: string[] = GLOBAL_FIELDS.filter((f) => f.globalOnly).map((f) => f.key);

/** A recipe's validated raw values (canonical keys). */
export interface ParsedRecipe {
  location: RecipeLocation;
  values: Record<string, unknown>;
}

/**
 * Reads, validates and checks one recipe; any problem throws a ConfigError listing every issue.
 * `seen.name` receives the recipe's `name:` as soon as it is read, so a broken recipe is still
 * known by it. A recipe validated before (same bytes, same tool) comes from `cache`, and a newly
 * valid one goes into it, unless its checks read other files (a resolver script).
 */
export async function loadRecipe(
  location: RecipeLocation,
  seen: { name?: string } = {},
  cache?: ValidatedCache,
): Promise<ParsedRecipe> {
  let text: string;
  try {
    text = readYamlText(location.file);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([
      { file: location.file, line: 1, col: 1, message: `cannot read: ${(err as Error).message}` },
    ]);
  }
  const cached = cache?.get('recipe', text);
  if (cached) {
    noteName(seen, cached.name);
    return { location, values: cached };
  }
  const y = await parseYamlText(location.file, text);
  const { values, issues } = await checkedValues(y, location, seen);
  if (issues.length || !values) throw new ConfigError(dedupe(issues));
  if (!readsOtherFiles(values)) cache?.put('recipe', text, values, secretRanges(y, RECIPE_ALIASES));
  return { location, values };
}

// The checks of a script recipe read its script (recipe-checks.ts, placeholders.ts): its verdict
// depends on more than the recipe's bytes.
function readsOtherFiles(values: Record<string, unknown>): boolean {
  return (values.strategy as Record<string, unknown> | undefined)?.strategy === 'script';
}

function noteName(seen: { name?: string }, name: unknown): void {
  if (typeof name === 'string' && name.trim() !== '' && firstControlChar(name) === -1) seen.name = name;
}

// A key typed at the wrong level: a recipe field under `strategy:`, or a strategy field at the top.
function misplacedKey(
  data: Record<string, unknown>,
  path: readonly PropertyKey[],
  key: string,
): string | undefined {
  if (path.length === 1 && path[0] === 'strategy' && RECIPE_KEYS.includes(key))
    return `${key} belongs at the top level of the recipe, not under strategy: unindent it`;
  if (path.length !== 0) return undefined;
  const kind = (data.strategy as Record<string, unknown> | undefined)?.strategy;
  const owners = Object.entries(STRATEGY_KEYS)
    .filter(
      ([name, keys]) =>
        keys.includes(key) && (typeof kind !== 'string' || name === kind || !(kind in STRATEGY_KEYS)),
    )
    .map(([name]) => name);
  return owners.length
    ? `${key} belongs under strategy: (a ${owners.join(' or ')} field); indent it there`
    : undefined;
}

// Everything loadRecipe checks, on a parsed file: the validated values (undefined when the schema
// refused them) and every issue found.
async function checkedValues(
  y: YamlFile,
  location: RecipeLocation,
  seen: { name?: string },
): Promise<{ values: Record<string, unknown> | undefined; issues: ConfigIssue[] }> {
  const data = expectMapping(y);
  noteName(seen, data.name);
  const spelledAs = aliasSpellings(data, RECIPE_ALIASES);
  const issues: ConfigIssue[] = normalizeAliases(y, data, RECIPE_ALIASES);
  for (const key of GLOBAL_ONLY_KEYS.filter((k) => k in data)) {
    // An empty value means "not set" here as everywhere.
    if (data[key] === null) {
      delete data[key];
      continue;
    }
    issues.push(
      issueAt(y, [key], `${key}: only config.yml reads this field (it concerns the tool, not one app)`, {
        key: true,
        hint: `move ${key} to config.yml`,
      }),
    );
    delete data[key];
  }
  // The schema (and zod) load with the first recipe that is not in the cache.
  const { recipeSchema } = await import('./schema.js');
  const parsed = recipeSchema.safeParse(data);
  if (!parsed.success) {
    issues.push(
      ...zodIssues(y, parsed.error, {
        spelledAs,
        knownKeys: (path) => {
          if (path.length === 1 && path[0] === 'strategy') {
            const kind = (data.strategy as Record<string, unknown> | undefined)?.strategy;
            return STRATEGY_KEYS[String(kind)] ?? Object.values(STRATEGY_KEYS).flat();
          }
          return ALL_RECIPE_KEYS;
        },
        misplaced: (path, key) => misplacedKey(data, path, key),
        discriminatorHint: () => {
          const alias = strategyAlias((data.strategy as Record<string, unknown> | undefined)?.strategy);
          return alias ? `use "strategy: ${alias.use}": ${alias.why}` : undefined;
        },
      }),
    );
  }
  issues.push(...(await checkRecipe(y, data, location.dir)));
  issues.push(...placeholderIssues(y, data, location.dir));
  return { values: parsed.success ? parsed.data : undefined, issues };
}

function dedupe(issues: ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues
    .filter((i) => {
      const k = `${i.line}:${i.col}:${i.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => a.line - b.line || a.col - b.col);
}
