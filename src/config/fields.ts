import type * as z from 'zod';
import type { FieldKit } from './field-kit.js';
import { CATALOGUE_FORMAT_NAMES } from './catalogue-formats.js';
import { urlFieldProblem } from './url-field.js';

/**
 * The single table of global fields: their schema, default, documentation and branded aliases.
 * The zod schemas (built in schema.ts), the JSON Schema, `init --global`, docs/configuration.md and the GlobalSettings
 * type are all derived from it.
 */
export interface FieldSpec<K extends string = string, S extends z.ZodType = z.ZodType, D = unknown> {
  key: K;
  type: string;
  /** undefined: the setting is optional (absent unless set). */
  default: D;
  /** Shown in `init --global` and the configuration reference. */
  description: string;
  aliases: string[];
  /**
   * Builds the field's zod schema from the kit (field-kit.ts), which only the schema module loads:
   * reading the table (keys, defaults, aliases) costs no zod at start-up.
   */
  schema: (kit: FieldKit) => S;
  /** Fields new in this tool (not in the seed spec) are marked in the docs. */
  extension?: boolean;
  /** Read from config.yml only: it concerns the tool, not an app, so a recipe may not set it. */
  globalOnly?: boolean;
  /** May hold a credential: kept nowhere but where the user wrote it (validated-cache.ts). */
  secret?: boolean;
}

// Keeps each field's key, schema and default type, so GlobalSettings can be inferred from the table.
function field<const K extends string, S extends z.ZodType, D>(spec: FieldSpec<K, S, D>): FieldSpec<K, S, D> {
  return spec;
}

/** True for a parseable http(s) URL without credentials or control characters. */
export function isHttpUrl(value: string): boolean {
  return urlFieldProblem(value) === undefined;
}

export const GLOBAL_FIELDS = [
  field({
    key: 'storage_dir',
    type: 'string (path)',
    default: '~/.local/bin/AppImages',
    description: 'Directory where downloaded AppImage files are stored.',
    aliases: [],
    schema: (k) => k.pathString,
  }),
  field({
    key: 'symlink_dir',
    type: 'string (path)',
    default: '~/.local/bin',
    description: 'Directory for symlinks to installed AppImages (used when create_symlinks is true).',
    aliases: [],
    schema: (k) => k.pathString,
  }),
  field({
    key: 'naming_format',
    type: 'string',
    default: '{name}.AppImage',
    description:
      'File name template in storage_dir: {name} = recipe name (made safe for file names), {version} = resolved version. Without {name}, validate checks that no two apps can produce the same file.',
    aliases: [],
    schema: (k) => k.namingFormat,
  }),
  field({
    key: 'manage_desktop_files',
    type: 'boolean',
    default: true,
    description: 'Install the AppImage’s .desktop entry and icon under ~/.local/share.',
    aliases: ['integration'],
    schema: (k) => k.z.boolean(),
  }),
  field({
    key: 'create_symlinks',
    type: 'boolean',
    default: false,
    description: 'Create a symlink <symlink_dir>/<name> to the installed AppImage.',
    aliases: ['create_symlink'],
    schema: (k) => k.z.boolean(),
  }),
  field({
    key: 'segmented_downloads',
    type: 'boolean',
    default: true,
    description: 'Split downloads into parallel HTTP range requests when the server supports it.',
    aliases: [],
    schema: (k) => k.z.boolean(),
  }),
  field({
    key: 'delta',
    type: 'string',
    default: 'auto',
    description: 'Delta updates: auto (a .zsync file, else block maps), zsync, blockmap or off.',
    aliases: [],
    schema: (k) =>
      k.z.enum(['auto', 'zsync', 'blockmap', 'off'], { error: 'must be auto, zsync, blockmap or off' }),
    extension: true,
  }),
  field({
    key: 'show_all',
    type: 'boolean',
    default: false,
    description: '`update` also lists apps that are already up to date.',
    aliases: [],
    schema: (k) => k.z.boolean(),
  }),
  field({
    key: 'respect_rate_limits',
    type: 'boolean',
    default: true,
    description: 'Skip an app while a provider rate-limit window is open instead of sending requests.',
    aliases: [],
    schema: (k) => k.z.boolean(),
  }),
  field({
    key: 'hub_proxy',
    type: 'boolean',
    default: true,
    description: 'Retry rate-limited hub API metadata requests through hub_proxy_prefix.',
    aliases: ['github_proxy'],
    schema: (k) => k.z.boolean(),
  }),
  field({
    key: 'hub_proxy_prefix',
    type: 'string or list of strings',
    default: 'all',
    description: 'Proxy base URL, a list of them (tried in order), or "all" for the built-in list.',
    aliases: ['github_proxy_prefix'],
    schema: (k) => k.proxyPrefix,
  }),
  field({
    key: 'hub_token',
    type: 'string',
    default: undefined,
    description: 'Hub API token. Prefer the HUB_TOKEN variable or secrets.yml.',
    aliases: ['github_token'],
    schema: (k) => k.z.string().trim().min(1, 'must not be empty'),
    secret: true,
  }),
  field({
    key: 'hub_release_api_url',
    type: 'string (URL)',
    default: undefined,
    description:
      'Hub REST API base URL (enterprise instances), or fp’s template ending in /repos/{account}/{repository}/releases/latest.',
    aliases: ['github_release_api_url'],
    schema: (k) => k.forgeUrl('hub-api'),
  }),
  field({
    key: 'hub_release_web_url',
    type: 'string (URL)',
    default: undefined,
    description:
      'Hub web base URL; repositories on its host use the hub API. fp’s template …/{account}/{repository} is read as its base.',
    aliases: ['github_release_web_url'],
    schema: (k) => k.forgeUrl('hub-web'),
  }),
  field({
    key: 'lab_release_api_url',
    type: 'string (URL)',
    default: undefined,
    description:
      'Lab API base URL (self-managed instances), e.g. https://lab.example.com/api/v4, or fp’s template ending in /projects/{project_path}/releases/permalink/latest.',
    aliases: ['gitlab_release_api_url'],
    schema: (k) => k.forgeUrl('lab-api'),
  }),
  field({
    key: 'lab_release_web_url',
    type: 'string (URL)',
    default: undefined,
    description:
      'Lab web base URL; repositories on its host use the lab API. fp’s template …/{repo_path} is read as its base.',
    aliases: ['gitlab_release_web_url'],
    schema: (k) => k.forgeUrl('lab-web'),
  }),
  field({
    key: 'download_connections',
    type: 'integer (1-16)',
    default: 4,
    description: 'Parallel range requests per segmented download.',
    aliases: [],
    schema: (k) => k.z.number().int('must be a whole number').min(1).max(16),
    extension: true,
  }),
  field({
    key: 'stall_timeout',
    type: 'number (seconds)',
    default: 30,
    description:
      'Abort a connection that delivers no bytes, or less than `min_rate` per second, for this long (then retry).',
    aliases: [],
    schema: (k) => k.z.number().positive().max(3600),
    extension: true,
  }),
  field({
    key: 'min_rate',
    type: 'integer (bytes/s)',
    default: 10240,
    description:
      'Minimum download rate: less than this many bytes per second over `stall_timeout` seconds is a stall (`DOWNLOAD_TOO_SLOW`); 0 turns the rule off.',
    aliases: [],
    schema: (k) => k.z.number().int('must be a whole number').min(0),
    extension: true,
  }),
  field({
    key: 'app_timeout',
    type: 'number (seconds)',
    default: 1800,
    description:
      'Ceiling on the whole update of one app (resolve, download, verify, install; `APP_TIMEOUT`). Time queued behind other apps for one of the run’s download slots does not count.',
    aliases: [],
    schema: (k) => k.z.number().positive().max(86400),
    extension: true,
  }),
  field({
    key: 'notify',
    type: 'boolean',
    default: false,
    description: 'Desktop notification (notify-send) when a run updated or failed apps.',
    aliases: [],
    schema: (k) => k.z.boolean(),
    extension: true,
  }),
  field({
    key: 'keep_previous',
    type: 'boolean',
    default: true,
    description: 'Keep the replaced version of each app so `rollback` can restore it.',
    aliases: [],
    schema: (k) => k.z.boolean(),
    extension: true,
  }),
  field({
    key: 'max_asset_size',
    type: 'number (bytes)',
    default: 4 * 1024 ** 3,
    description:
      'Largest AppImage (or ZIP entry holding one) accepted; a bigger announced asset or extracted entry fails the app, and a download with no announced size stops failing at this many bytes.',
    aliases: [],
    schema: (k) =>
      k.z
        .number()
        .int()
        .positive()
        .max(2 ** 50),
    extension: true,
  }),
  field({
    key: 'provenance',
    type: 'off, warn, require',
    default: 'off',
    description: 'Verify the asset’s build-provenance attestation before downloading (docs/trust.md).',
    aliases: [],
    schema: (k) => k.z.enum(['off', 'warn', 'require'], { message: 'must be "off", "warn" or "require"' }),
    extension: true,
  }),
  field({
    key: 'provenance_signer',
    type: 'string',
    default: undefined,
    description: 'owner/repo/.github/workflows/file.yml that must sign; default: the repo’s own.',
    aliases: [],
    schema: (k) => k.provenanceSigner,
    extension: true,
  }),
  field({
    key: 'release_attestation',
    type: 'auto, require, off',
    default: 'auto',
    description: 'Verify the release attestation: auto = when the release is immutable.',
    aliases: [],
    schema: (k) => k.z.enum(['auto', 'require', 'off'], { message: 'must be "auto", "require" or "off"' }),
    extension: true,
  }),
  field({
    key: 'signature',
    type: '"off", "tofu" or "require"',
    default: 'tofu',
    description:
      'Embedded AppImage signatures: tofu = the first signed install pins its key and every update must be signed by it; require = unsigned files fail too.',
    aliases: [],
    schema: (k) => k.z.enum(['off', 'tofu', 'require'], { message: 'must be "off", "tofu" or "require"' }),
    extension: true,
  }),
  field({
    key: 'min_release_age',
    type: 'duration (e.g. 3d)',
    default: undefined,
    description:
      'Cooldown: a release younger than this (`30m`, `12h`, `3d`, `1w`, at most `365d`; `0` = none) is `deferred` until it is old enough (docs/update.md).',
    aliases: [],
    schema: (k) => k.releaseAge,
    extension: true,
  }),
  field({
    key: 'launch_fixes',
    type: 'boolean',
    default: true,
    description:
      'Adapt desktop entries so AppImages start on this system (--no-sandbox under AppArmor, extract-and-run without libfuse2).',
    aliases: [],
    schema: (k) => k.z.boolean(),
    extension: true,
  }),
  field({
    key: 'https_proxy',
    type: 'string (URL)',
    default: undefined,
    description:
      'Proxy for https requests (http://[user:password@]host:port, or socks5h://…); over the https_proxy variable. See docs/network.md.',
    aliases: [],
    schema: (k) => k.proxySetting,
    extension: true,
    globalOnly: true,
    secret: true,
  }),
  field({
    key: 'http_proxy',
    type: 'string (URL)',
    default: undefined,
    description: 'Proxy for plain http requests; over the http_proxy variable.',
    aliases: [],
    schema: (k) => k.proxySetting,
    extension: true,
    globalOnly: true,
    secret: true,
  }),
  field({
    key: 'no_proxy',
    type: 'string',
    default: undefined,
    description:
      'Hosts reached directly: comma-separated names (suffixes), IPs, CIDR ranges, host:port, or *; over the no_proxy variable.',
    aliases: [],
    schema: (k) => k.proxySetting,
    extension: true,
    globalOnly: true,
  }),
  field({
    key: 'auto_self_update',
    type: 'boolean',
    default: false,
    description: '`update` also runs `self-update` after the apps.',
    aliases: [],
    schema: (k) => k.z.boolean(),
    globalOnly: true,
  }),
  field({
    key: 'ca_file',
    type: 'string (path)',
    default: undefined,
    description:
      'PEM file of extra certificate authorities (a company or private CA) trusted beside node’s roots and the system store (docs/network.md).',
    aliases: [],
    schema: (k) => k.pathString,
    extension: true,
    globalOnly: true,
  }),
  field({
    key: 'catalogues',
    type: 'list of URLs',
    default: undefined,
    description:
      'Catalogues for `search` and `add NAME` (docs/catalogues.md): URLs or {url, format}; default AppImageHub and AM.',
    aliases: [],
    schema: (k) =>
      k.z
        .array(
          k.z.union([
            k.httpUrl,
            k.z.strictObject({ url: k.httpUrl, format: k.z.enum(CATALOGUE_FORMAT_NAMES) }),
          ]),
        )
        .max(32, 'at most 32 catalogues'),
    extension: true,
    globalOnly: true,
  }),
] as const;

/** Default global settings as written by `init --global`, before path expansion. */
export function defaultGlobalValues(): Record<string, unknown> {
  return Object.fromEntries(
    GLOBAL_FIELDS.filter((f) => f.default !== undefined).map((f) => [f.key, f.default]),
  );
}

/** alias → canonical key, for every field that has branded spellings. */
export function aliasMap(fields: readonly { key: string; aliases: string[] }[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const f of fields) for (const a of f.aliases) map.set(a, f.key);
  return map;
}

/** Every key config.yml accepts (canonical spellings), for "did you mean" hints. */
export const CONFIG_KEYS: string[] = GLOBAL_FIELDS.map((f) => f.key);

/** The fields that may hold a credential (`secret`). */
export const SECRET_KEYS: ReadonlySet<string> = new Set(
  GLOBAL_FIELDS.filter((f) => f.secret).map((f) => f.key),
);
