import { stat } from 'node:fs/promises';
import { ConfigError, ExitCode, UsageError, type ConfigIssue } from '../core/errors.js';
import { aliasMap, CONFIG_KEYS, GLOBAL_FIELDS } from './fields.js';
import type { Paths } from './paths.js';
import { aliasSpellings, normalizeAliases, zodIssues } from './validate-yaml.js';
import { readYamlFile, type YamlFile } from './yaml-file.js';

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

/** Reads config.yml; a missing file means every default. Invalid content throws a ConfigError. */
export async function loadConfig(paths: Paths): Promise<LoadedConfig> {
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
  const y = await readOptionalYaml(paths.secretsFile);
  if (!y) return { file: paths.secretsFile, exists: false, hubToken: undefined, warnings: [] };
  const data = expectMapping(y, ExitCode.usage);
  const aliases = new Map([['github_token', 'hub_token']]);
  const spelledAs = aliasSpellings(data, aliases);
  const issues = normalizeAliases(y, data, aliases);
  const { secretsSchema } = await import('./schema.js');
  const parsed = secretsSchema.safeParse(data);
  if (!parsed.success)
    issues.push(...zodIssues(y, parsed.error, { spelledAs, knownKeys: () => ['hub_token', 'github_token'] }));
  if (issues.length || !parsed.success) throw new ConfigError(issues, { exitCode: ExitCode.usage });
  const warnings: string[] = [];
  const st = await stat(paths.secretsFile);
  if ((st.mode & 0o077) !== 0) {
    warnings.push(
      `${paths.secretsFile} is readable by group or others (mode ${(st.mode & 0o777).toString(8)}); run: chmod 600 ${paths.secretsFile}`,
    );
  }
  return { file: paths.secretsFile, exists: true, hubToken: parsed.data.hub_token, warnings };
}
