import type * as z from 'zod';
import type { FieldKit } from './field-kit.js';
import { GLOBAL_FIELDS } from './fields.js';

/** Fields that exist only in recipes (beyond the overridable global fields). */
export interface RecipeFieldSpec {
  key: string;
  type: string;
  required: boolean;
  default: unknown;
  description: string;
  aliases: string[];
  /** Built from the kit by schema.ts (see FieldSpec.schema). */
  schema: (kit: FieldKit) => z.ZodType;
}

/** The keys of each strategy, in the order its schema yields them (field-kit.ts; a test keeps them equal). */
export const STRATEGY_KEYS: Record<string, string[]> = {
  forge: [
    'strategy',
    'repository',
    'asset_match',
    'asset_match_regex',
    'inner_asset_match',
    'prerelease',
    'tag',
  ],
  direct: ['strategy', 'url', 'check_method'],
  script: ['strategy', 'script_path', 'timeout', 'script_env_token'],
};

/**
 * What each strategy field means, by kind: the strategy schemas carry only types. The reference
 * (scripts/config-docs.ts) and the JSON Schema editors read (`schema recipe`) both take it from here,
 * and a field without an entry fails docs generation, so a new field cannot go undocumented.
 */
export const STRATEGY_DOCS: Record<string, Record<string, string>> = {
  forge: {
    strategy: '`forge`.',
    repository:
      'Repository URL `https://<host>/<owner>/<repo>` on the hub, the lab (nested groups allowed) or a Gitea/Forgejo host.',
    asset_match:
      'Glob against release asset names (case-sensitive). Without it and `asset_match_regex`, every `*.AppImage` asset (any letter case) is a candidate, narrowed by this machine’s architecture.',
    asset_match_regex:
      'Regular expression (RE2 syntax, as Rust’s `regex`) that must match the whole asset name, as `^(?:re)$`. Inline flags such as `(?i)` and POSIX classes inside brackets (`[[:digit:]]`) work; backreferences and lookaround are reported by `validate` at their position. With `asset_match` too, an asset must match both.',
    inner_asset_match:
      'Glob selecting the AppImage inside a ZIP asset. Without `/` it matches the entry’s file name, with `/` its whole path.',
    prerelease:
      'Also consider pre-releases (default `false`: the forge’s latest release); `only`: the newest pre-release.',
    tag: 'Follow this one literal tag (`continuous`, `nightly`) instead of the latest release; wins over `prerelease`.',
  },
  direct: {
    strategy: '`direct`.',
    url: 'http(s) URL that always serves the latest AppImage.',
    check_method: '`etag` or `last-modified`: the response header compared to detect a new file.',
  },
  script: {
    strategy: '`script`.',
    script_path:
      'Bash script, relative to the recipe’s folder (it must stay inside it). It prints two lines: the download URL, then the version.',
    timeout: 'Seconds before the script is killed (default 120, at most 3600).',
    script_env_token:
      '`true` passes `HUB_TOKEN`, `GITHUB_TOKEN` and `GH_TOKEN` from the environment to the script (default `false`: they are removed, so a script cannot leak the token by accident).',
  },
};

/** A v4 OpenPGP fingerprint as people paste it (spaces, `0x`, any case) → 40 upper-case hex digits. */
export function normaliseFingerprint(value: string): string {
  return value.replace(/\s+/g, '').replace(/^0x/i, '').toUpperCase();
}

export const RECIPE_FIELDS: RecipeFieldSpec[] = [
  {
    key: 'name',
    type: 'string',
    required: true,
    default: undefined,
    description:
      'App name; used for {name}, the symlink and the command line. One line of up to 100 bytes, without `/`, not `.` or `..`',
    aliases: [],
    schema: (k) => k.z.string(),
  },
  {
    key: 'strategy',
    type: 'object',
    required: true,
    default: undefined,
    description: 'How to find the latest version: forge, direct or script (see below).',
    aliases: [],
    schema: (k) => k.strategySchema,
  },
  {
    key: 'ignore',
    type: 'boolean',
    required: false,
    default: false,
    description: 'Keep the app listed but skip it in check and update.',
    aliases: [],
    schema: (k) => k.z.boolean(),
  },
  {
    key: 'inner_asset_match',
    type: 'string',
    required: false,
    default: undefined,
    description: 'Glob selecting the AppImage inside a ZIP asset (same as strategy.inner_asset_match).',
    aliases: [],
    schema: (k) => k.z.string().min(1, 'must not be empty'),
  },
  {
    key: 'zsync',
    type: 'boolean, "auto" or URL',
    required: false,
    default: false,
    description:
      'Delta updates: true = <download URL>.zsync, auto = a .zsync asset of the release, or a URL.',
    aliases: [],
    schema: (k) => k.z.union([k.z.boolean(), k.z.literal('auto'), k.httpUrl]),
  },
  {
    key: 'signing_key',
    type: 'string (fingerprint)',
    required: false,
    default: undefined,
    description:
      'OpenPGP key fingerprint the embedded signature must come from (pins it instead of trusting the first signed file).',
    aliases: [],
    schema: (k) => k.fingerprint,
  },
  {
    key: 'desktop_exec_args',
    type: 'list of strings',
    required: false,
    default: [],
    description:
      'Arguments appended to every Exec line of the desktop entry (e.g. --no-sandbox). No control characters.',
    aliases: [],
    schema: (k) => k.z.array(k.z.string()),
  },
  {
    key: 'desktop_env',
    type: 'map of strings',
    required: false,
    default: {},
    description:
      'Environment variables set when the desktop entry launches the app. Values hold no control characters.',
    aliases: [],
    schema: (k) =>
      k.z.record(
        k.z.string().regex(k.envName, 'must be a valid environment variable name'),
        k.z.union([k.z.string(), k.z.number(), k.z.boolean()]).transform((v) => String(v)),
      ),
  },
];

/** Every key a recipe accepts (canonical spellings): the overridable global fields, then its own. */
export const RECIPE_KEYS: string[] = [
  ...new Set([
    ...GLOBAL_FIELDS.filter((f) => !f.globalOnly).map((f) => f.key),
    ...RECIPE_FIELDS.map((f) => f.key),
  ]),
];
