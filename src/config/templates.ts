import { stringify } from 'yaml';
import { GLOBAL_FIELDS } from './fields.js';
import { PLACEHOLDERS } from './placeholder-values.js';

/** File names of the JSON Schemas written beside config.yml for editors. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';
export const RECIPE_SCHEMA_FILE = 'recipe.schema.json';

function yamlLine(key: string, value: unknown): string {
  if (value === undefined) return `${key}:`;
  return stringify({ [key]: value }, { lineWidth: 0 }).trimEnd();
}

/**
 * The starter config.yml: every field present with its default and a comment; `layoutDefaults`
 * (the system layout's folders) replace the per-user defaults of the fields they name.
 */
export function starterConfig(layoutDefaults: Readonly<Record<string, string>> = {}): string {
  const lines = [
    `# yaml-language-server: $schema=./${CONFIG_SCHEMA_FILE}`,
    '# appimage-keeper global configuration. Every field can be overridden in a recipe.',
    '# Reference: docs/configuration.md. Fields left empty are not set.',
    '',
  ];
  for (const f of GLOBAL_FIELDS) {
    const value = layoutDefaults[f.key] ?? f.default;
    lines.push(
      `# ${f.description} (${f.type}${value === undefined ? '' : `, default ${JSON.stringify(value)}`})`,
    );
    if (f.key === 'hub_token') lines.push('# Discouraged here: prefer HUB_TOKEN or secrets.yml (chmod 600).');
    lines.push(yamlLine(f.key, value), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** A recipe skeleton for `init --app`; it validates once the placeholders are replaced. */
export function starterRecipe(
  name: string,
  strategy: 'forge' | 'direct' | 'script',
  schemaPath: string,
): string {
  const head = [`# yaml-language-server: $schema=${schemaPath}`, `name: ${name}`, 'strategy:'];
  const body: Record<typeof strategy, string[]> = {
    forge: [
      '  strategy: forge',
      '  # Repository on the hub, the lab or a Gitea/Forgejo instance.',
      `  repository: ${PLACEHOLDERS.repository}`,
      '  # Glob against the release asset names; add asset_match_regex to refine.',
      '  asset_match: "*x86_64.AppImage"',
    ],
    direct: [
      '  strategy: direct',
      '  # A URL that always serves the latest AppImage.',
      `  url: ${PLACEHOLDERS.url}`,
      '  # Header that changes when the file changes: etag or last-modified.',
      '  check_method: etag',
    ],
    script: [
      '  strategy: script',
      '  # Prints two lines: the download URL, then the version.',
      '  script_path: resolver.sh',
      '  # true passes HUB_TOKEN, GITHUB_TOKEN and GH_TOKEN to the script (they are removed otherwise).',
      '  # script_env_token: false',
    ],
  };
  const tail = [
    '',
    '# Optional overrides of config.yml for this app, e.g.:',
    '# create_symlinks: true',
    '# desktop_exec_args: ["--no-sandbox"]',
  ];
  return `${[...head, ...body[strategy], ...tail].join('\n')}\n`;
}

/** The resolver script scaffolded with `init --app NAME --strategy script`. */
export function starterResolverScript(): string {
  return [
    '#!/usr/bin/env bash',
    '# Print two lines: the download URL of the latest AppImage, then its version.',
    '# Available: $APP_NAME, $APP_VERSION (installed, may be empty), $APP_ARCH (e.g. x86_64).',
    '# The hub token variables are visible only with strategy.script_env_token: true.',
    'set -euo pipefail',
    'version="1.0.0"',
    `echo "${PLACEHOLDERS.scriptUrl}\${APP_NAME}-\${version}-\${APP_ARCH}.AppImage"`,
    'echo "$version"',
    '',
  ].join('\n');
}
