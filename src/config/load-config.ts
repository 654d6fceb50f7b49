import { stat } from 'node:fs/promises';
import { ConfigError, ExitCode, UsageError, type ConfigIssue } from '../core/errors.js';
import { aliasMap, CONFIG_KEYS, GLOBAL_FIELDS } from './fields.js';
import type { Paths } from './paths.js';
import { aliasSpellings, normalizeAliases, zodIssues } from './validate-yaml.js';
import { readSmallFileSync } from '../core/small-file.js';
import { plainConfigValues } from './plain-config.js';
import { readPlainYaml } from './plain-yaml.js';
import {
  documentlessYamlFile,
  MAX_YAML_BYTES,
  NeedsDocument,
  readYamlFile,
  type YamlFile,
} from './yaml-file.js';

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

async function readOptionalYaml(file: string): Promise<YamlFile | undefined> {
  try {
    return await readYamlFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // config.yml and secrets.yml problems stop the whole run: exit 2.
    if (err instanceof ConfigError) throw new ConfigError(err.issues, { exitCode: ExitCode.usage });
    throw new UsageError('CONFIG_UNREADABLE', `cannot read ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
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
 * A config file's values by the plain path (plain-yaml.ts, and `check`: plain-config.ts): `missing`
 * when there is no file; undefined when the file needs the full path (the yaml library and the
 * schema), which then reads it from the start, so every message about it comes from one path.
 */
function plainValues(
  file: string,
  aliases: ReadonlyMap<string, string>,
  check: (data: Record<string, unknown>) => Record<string, unknown> | undefined,
): Record<string, unknown> | 'missing' | undefined {
  let read: ReturnType<typeof readSmallFileSync>;
  try {
    read = readSmallFileSync(file, MAX_YAML_BYTES);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
  }
  if (read.kind !== 'text') return undefined;
  const data = readPlainYaml(read.text);
  if (!data) return undefined;
  try {
    if (normalizeAliases(documentlessYamlFile(file, read.text, data), data, aliases).length) return undefined;
  } catch (err) {
    if (err instanceof NeedsDocument) return undefined;
    throw err;
  }
  return check(data);
}

/** Reads config.yml; a missing file means every default. Invalid content throws a ConfigError. */
export async function loadConfig(paths: Paths): Promise<LoadedConfig> {
  const plain = plainValues(paths.configFile, GLOBAL_ALIASES, plainConfigValues);
  if (plain === 'missing') return { file: paths.configFile, exists: false, values: {} };
  if (plain) return { file: paths.configFile, exists: true, values: plain };
  const y = await readOptionalYaml(paths.configFile);
  if (!y) return { file: paths.configFile, exists: false, values: {} };
  const data = expectMapping(y, ExitCode.usage);
  const spelledAs = aliasSpellings(data, GLOBAL_ALIASES);
  const issues: ConfigIssue[] = normalizeAliases(y, data, GLOBAL_ALIASES);
  // The schemas (and zod) load only when there is a file to check.
  const { configSchema } = await import('./schema.js');
  const parsed = configSchema.safeParse(data);
  if (!parsed.success)
    issues.push(...zodIssues(y, parsed.error, { spelledAs, knownKeys: () => ALL_CONFIG_KEYS }));
  if (issues.length || !parsed.success) throw new ConfigError(issues, { exitCode: ExitCode.usage });
  return { file: paths.configFile, exists: true, values: parsed.data };
}

/** Reads secrets.yml (field hub_token, alias github_token) and warns when others can read it. */
export async function loadSecrets(paths: Paths): Promise<LoadedSecrets> {
  const plain = plainValues(paths.secretsFile, SECRET_ALIASES, plainSecretsValues);
  if (plain === 'missing')
    return { file: paths.secretsFile, exists: false, hubToken: undefined, warnings: [] };
  const hubToken = plain ? (plain.hub_token as string | undefined) : await checkedSecrets(paths.secretsFile);
  if (hubToken === null) return { file: paths.secretsFile, exists: false, hubToken: undefined, warnings: [] };
  const warnings: string[] = [];
  const st = await stat(paths.secretsFile);
  if ((st.mode & 0o077) !== 0) {
    warnings.push(
      `${paths.secretsFile} is readable by group or others (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 ${paths.secretsFile}`,
    );
  }
  return { file: paths.secretsFile, exists: true, hubToken, warnings };
}

const SECRET_ALIASES: ReadonlyMap<string, string> = new Map([['github_token', 'hub_token']]);

// secrets.yml's values as secretsSchema yields them, when it certainly accepts them: nothing, or a
// token that is not empty.
function plainSecretsValues(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = Object.keys(data);
  if (keys.length === 0) return {};
  if (keys.length !== 1 || keys[0] !== 'hub_token') return undefined;
  const token = data.hub_token;
  return typeof token === 'string' && token.trim() !== '' ? { hub_token: token.trim() } : undefined;
}

// secrets.yml through the yaml library and the schema: its token; null when there is no file.
async function checkedSecrets(file: string): Promise<string | undefined | null> {
  const y = await readOptionalYaml(file);
  if (!y) return null;
  const data = expectMapping(y, ExitCode.usage);
  const spelledAs = aliasSpellings(data, SECRET_ALIASES);
  const issues = normalizeAliases(y, data, SECRET_ALIASES);
  const { secretsSchema } = await import('./schema.js');
  const parsed = secretsSchema.safeParse(data);
  if (!parsed.success)
    issues.push(...zodIssues(y, parsed.error, { spelledAs, knownKeys: () => ['hub_token', 'github_token'] }));
  if (issues.length || !parsed.success) throw new ConfigError(issues, { exitCode: ExitCode.usage });
  return parsed.data.hub_token;
}
