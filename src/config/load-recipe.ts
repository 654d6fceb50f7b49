import { firstControlChar } from '../core/control-chars.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { RecipeLocation } from './discover.js';
import { aliasMap, GLOBAL_FIELDS } from './fields.js';
import { expectMapping } from './load-config.js';
import { placeholderIssues } from './placeholders.js';
import { checkRecipe } from './recipe-checks.js';
import { RECIPE_FIELDS, RECIPE_KEYS, STRATEGY_KEYS } from './recipe-fields.js';
import type { recipeSchema } from './schema.js';
import { aliasSpellings, normalizeAliases, zodIssues } from './validate-yaml.js';
import { strategyAlias } from './strategy-aliases.js';
import { readSmallFileSync } from '../core/small-file.js';
import { readPlainYaml } from './plain-yaml.js';
import { plainRecipeValues } from './plain-recipe.js';
import {
  documentlessYamlFile,
  issueAt,
  MAX_YAML_BYTES,
  NeedsDocument,
  readYamlFile,
  type YamlFile,
} from './yaml-file.js';

const RECIPE_ALIASES = aliasMap(GLOBAL_FIELDS);
const ALL_RECIPE_KEYS = [...RECIPE_KEYS, ...RECIPE_ALIASES.keys()];
const GLOBAL_ONLY_KEYS: string[] = GLOBAL_FIELDS.filter((f) => f.globalOnly).map((f) => f.key);
const REQUIRED_KEYS: string[] = RECIPE_FIELDS.filter((f) => f.required).map((f) => f.key);
const SCHEMA_KEYS = new Set(RECIPE_KEYS);

type RecipeSchema = typeof recipeSchema;
type SchemaResult = ReturnType<RecipeSchema['safeParse']>;

/** Schemas of the key sets recipes use, so that the fast path validates only the keys a recipe has. */
const narrowSchemas = new Map<string, RecipeSchema>();
const MAX_NARROW_SCHEMAS = 64;

/**
 * The recipe schema restricted to `data`'s known keys and the required ones. For this input it
 * accepts and yields exactly what the whole schema does: a field that is absent and optional is
 * left out of the output by both, and the object has no checks across fields. Unknown keys stay
 * unknown to it (the strict object refuses them). Most recipes share a few key sets.
 */
async function narrowRecipeSchema(data: Record<string, unknown>): Promise<RecipeSchema> {
  const { recipeSchema } = await import('./schema.js');
  const known = Object.keys(data).filter((k) => SCHEMA_KEYS.has(k));
  const keys = [...new Set([...REQUIRED_KEYS, ...known])].sort();
  const id = keys.join('\n');
  let schema = narrowSchemas.get(id);
  if (!schema) {
    if (narrowSchemas.size >= MAX_NARROW_SCHEMAS) return recipeSchema;
    const mask = Object.fromEntries(keys.map((k) => [k, true] as const));
    schema = recipeSchema.pick(mask);
    narrowSchemas.set(id, schema);
  }
  return schema;
}

/** A recipe's validated raw values (canonical keys). */
export interface ParsedRecipe {
  location: RecipeLocation;
  values: Record<string, unknown>;
}

/**
 * Reads, validates and checks one recipe; any problem throws a ConfigError listing every issue.
 * `seen.name` receives the recipe's `name:` as soon as it is read, so a broken recipe is still
 * known by it.
 */
export async function loadRecipe(
  location: RecipeLocation,
  seen: { name?: string } = {},
): Promise<ParsedRecipe> {
  const fast = await loadPlainRecipe(location, seen);
  if (fast) return fast;
  let y: YamlFile;
  try {
    y = await readYamlFile(location.file);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([
      { file: location.file, line: 1, col: 1, message: `cannot read: ${(err as Error).message}` },
    ]);
  }
  const { values, issues } = await checkedValues(y, location, seen);
  if (issues.length) throw new ConfigError(dedupe(issues));
  return { location, values: values as Record<string, unknown> };
}

/**
 * The fast path for a valid recipe in plain YAML (see plain-yaml.ts): the same checks on the same
 * values, without building the library's document. Anything else — a file it cannot read, YAML
 * outside the subset, or any issue at all — answers undefined, and the full path runs from the
 * start, so every message about a recipe comes from the full path.
 */
async function loadPlainRecipe(
  location: RecipeLocation,
  seen: { name?: string },
): Promise<ParsedRecipe | undefined> {
  let text: string;
  try {
    const read = readSmallFileSync(location.file, MAX_YAML_BYTES);
    if (read.kind !== 'text') return undefined;
    text = read.text;
  } catch {
    return undefined;
  }
  const data = readPlainYaml(text);
  if (!data) return undefined;
  try {
    const { values, issues } = await checkedValues(
      documentlessYamlFile(location.file, text, data),
      location,
      seen,
      parsePlain,
    );
    return issues.length || !values ? undefined : { location, values };
  } catch (err) {
    // An issue being positioned: the full path finds it again, with the document.
    if (err instanceof NeedsDocument) return undefined;
    throw err;
  }
}

// The fast path's schema: hand-written checks of the commonest shape (plain-recipe.ts), else the
// schema narrowed to the recipe's keys. Both yield what the whole schema does.
async function parsePlain(data: Record<string, unknown>): Promise<SchemaResult> {
  const values = plainRecipeValues(data);
  if (values) return { success: true, data: values };
  return (await narrowRecipeSchema(data)).safeParse(data);
}

// The full path's schema, loaded (with zod) on first use.
async function parseWhole(data: Record<string, unknown>): Promise<SchemaResult> {
  const { recipeSchema } = await import('./schema.js');
  return recipeSchema.safeParse(data);
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
  parse: (data: Record<string, unknown>) => Promise<SchemaResult> = parseWhole,
): Promise<{ values: Record<string, unknown> | undefined; issues: ConfigIssue[] }> {
  const data = expectMapping(y);
  if (typeof data.name === 'string' && data.name.trim() !== '' && firstControlChar(data.name) === -1)
    seen.name = data.name;
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
  const parsed = await parse(data);
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
