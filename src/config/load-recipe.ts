import { firstControlChar } from '../core/control-chars.js';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { RecipeLocation } from './discover.js';
import { aliasMap, GLOBAL_FIELDS } from './fields.js';
import { expectMapping } from './load-config.js';
import { placeholderIssues } from './placeholders.js';
import { checkRecipe } from './recipe-checks.js';
import { STRATEGY_KEYS } from './recipe-fields.js';
import { RECIPE_KEYS, recipeSchema } from './schema.js';
import { normalizeAliases, zodIssues } from './validate-yaml.js';
import { issueAt, readYamlFile, type YamlFile } from './yaml-file.js';

const RECIPE_ALIASES = aliasMap(GLOBAL_FIELDS);
const ALL_RECIPE_KEYS = [...RECIPE_KEYS, ...RECIPE_ALIASES.keys()];
const GLOBAL_ONLY_KEYS: string[] = GLOBAL_FIELDS.filter((f) => f.globalOnly).map((f) => f.key);

/** A recipe's validated raw values (canonical keys) and its parsed file. */
export interface ParsedRecipe {
  location: RecipeLocation;
  values: Record<string, unknown>;
  yaml: YamlFile;
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
  let y: YamlFile;
  try {
    y = readYamlFile(location.file);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError([
      { file: location.file, line: 1, col: 1, message: `cannot read: ${(err as Error).message}` },
    ]);
  }
  const data = expectMapping(y);
  if (typeof data.name === 'string' && data.name.trim() !== '' && firstControlChar(data.name) === -1)
    seen.name = data.name;
  const spelledAs = new Map([...RECIPE_ALIASES].filter(([a]) => a in data).map(([a, c]) => [c, a]));
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
      }),
    );
  }
  issues.push(...(await checkRecipe(y, data, location.dir)));
  issues.push(...placeholderIssues(y, data, location.dir));
  if (issues.length) throw new ConfigError(dedupe(issues));
  return { location, values: parsed.data as Record<string, unknown>, yaml: y };
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
