import { stat } from 'node:fs/promises';
import { ConfigError, ExitCode, UsageError, type ConfigIssue } from '../core/errors.js';
import { aliasMap, CONFIG_KEYS, GLOBAL_FIELDS, SECRET_KEYS } from './fields.js';
import type { Paths } from './paths.js';
import type { ValidatedCache } from './validated-cache.js';
import { aliasSpellings, normalizeAliases, zodIssues } from './validate-yaml.js';
import { parseYamlText, readYamlText, topLevelValueRanges, type YamlFile } from './yaml-file.js';

/** Raw values of config.yml with canonical keys, before defaults and path expansion. */
export interface LoadedConfig {
  file: string;
  exists: boolean;
  values: Record<string, unknown>;
}

/** The token from secrets.yml, if any, and warnings about the file. */
export interface LoadedSecrets {
  file: string;
  exists: boolean;
  hubToken: string | undefined;
  warnings: string[];
}

const GLOBAL_ALIASES = aliasMap(GLOBAL_FIELDS);
const ALL_CONFIG_KEYS = [...CONFIG_KEYS, ...GLOBAL_ALIASES.keys()];

// config.yml and secrets.yml problems stop the whole run: exit 2.
function asUsage(file: string, err: unknown): Error {
  if (err instanceof ConfigError) return new ConfigError(err.issues, { exitCode: ExitCode.usage });
  return new UsageError('CONFIG_UNREADABLE', `cannot read ${file}: ${(err as Error).message}`, {
    cause: err,
  });
}

// The text of an optional config file; undefined when there is none.
function readOptionalText(file: string): string | undefined {
  try {
    return readYamlText(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw asUsage(file, err);
  }
}

async function parseConfigText(file: string, text: string): Promise<YamlFile> {
  try {
    return await parseYamlText(file, text);
  } catch (err) {
    throw asUsage(file, err);
  }
}

/** The spans of the secret fields' values in a file, by canonical key (aliases resolved). */
export function secretRanges(
  y: YamlFile,
  aliases: ReadonlyMap<string, string>,
): Record<string, readonly [number, number] | undefined> {
  return topLevelValueRanges(y, (spelling) => {
    const key = aliases.get(spelling) ?? spelling;
    return SECRET_KEYS.has(key) ? key : undefined;
  });
}

/** Checks that a YAML document is a mapping (an empty file counts as an empty mapping). */
export function expectMapping(y: YamlFile, exitCode: ExitCode = ExitCode.appFailed): Record<string, unknown> {
  if (y.data === null || y.data === undefined) return {};
  if (typeof y.data !== 'object' || Array.isArray(y.data)) {
    throw new ConfigError(
      [{ file: y.file, line: 1, col: 1, message: 'expected a mapping of keys to values' }],
      {
        exitCode,
      },
    );
  }
  return { ...(y.data as Record<string, unknown>) };
}

/**
 * Reads config.yml; a missing file means every default. Invalid content throws a ConfigError.
 * Values validated before (same bytes, same tool) come from `cache`, and new ones go into it.
 */
export async function loadConfig(paths: Paths, cache?: ValidatedCache): Promise<LoadedConfig> {
  const file = paths.configFile;
  const text = readOptionalText(file);
  if (text === undefined) return { file, exists: false, values: {} };
  const cached = cache?.get('config', text);
  if (cached) return { file, exists: true, values: cached };
  const y = await parseConfigText(file, text);
  const data = expectMapping(y, ExitCode.usage);
  const spelledAs = aliasSpellings(data, GLOBAL_ALIASES);
  const issues: ConfigIssue[] = normalizeAliases(y, data, GLOBAL_ALIASES);
  // The schemas (and zod) load only when there is a file to check.
  const { configSchema } = await import('./schema.js');
  const parsed = configSchema.safeParse(data);
  if (!parsed.success)
    issues.push(...zodIssues(y, parsed.error, { spelledAs, knownKeys: () => ALL_CONFIG_KEYS }));
  if (issues.length || !parsed.success) throw new ConfigError(issues, { exitCode: ExitCode.usage });
  cache?.put('config', text, parsed.data, secretRanges(y, GLOBAL_ALIASES));
  return { file, exists: true, values: parsed.data };
}

/** Reads secrets.yml (field hub_token, alias github_token) and warns when others can read it. */
export async function loadSecrets(paths: Paths, cache?: ValidatedCache): Promise<LoadedSecrets> {
  const file = paths.secretsFile;
  const text = readOptionalText(file);
  if (text === undefined) return { file, exists: false, hubToken: undefined, warnings: [] };
  const values = cache?.get('secrets', text) ?? (await checkedSecrets(file, text, cache));
  const warnings: string[] = [];
  const st = await stat(file);
  if ((st.mode & 0o077) !== 0) {
    warnings.push(
      `${file} is readable by group or others (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
    );
  }
  return { file, exists: true, hubToken: values.hub_token as string | undefined, warnings };
}

const SECRET_ALIASES: ReadonlyMap<string, string> = new Map([['github_token', 'hub_token']]);

// secrets.yml through the yaml library and the schema: its values.
async function checkedSecrets(
  file: string,
  text: string,
  cache: ValidatedCache | undefined,
): Promise<Record<string, unknown>> {
  const y = await parseConfigText(file, text);
  const data = expectMapping(y, ExitCode.usage);
  const spelledAs = aliasSpellings(data, SECRET_ALIASES);
  const issues = normalizeAliases(y, data, SECRET_ALIASES);
  const { secretsSchema } = await import('./schema.js');
  const parsed = secretsSchema.safeParse(data);
  if (!parsed.success)
    issues.push(...zodIssues(y, parsed.error, { spelledAs, knownKeys: () => ['hub_token', 'github_token'] }));
  if (issues.length || !parsed.success) throw new ConfigError(issues, { exitCode: ExitCode.usage });
  cache?.put('secrets', text, parsed.data, secretRanges(y, SECRET_ALIASES));
  return parsed.data;
}
