/**
 * Hand-written checks of config.yml's fields, for start-up time: every command reads config.yml,
 * and checking it with the schema loads zod and builds every field's schema (tens of milliseconds
 * of a command that otherwise takes about as many). For a config whose every field has a check here
 * and certainly passes it, it answers exactly the values the zod schema (schema.ts) yields; on any
 * other field, any value it is not sure of, or any doubt, it answers undefined and the caller runs
 * the schema, so every message about config.yml still comes from zod. The rules that are more than
 * a type live in zod-free modules both use (field-rules.ts, naming-format.ts, forge-url-template.ts,
 * duration.ts, url-field.ts). test/config/plain-config.test.ts compares the two field by field.
 */
import { parseDuration } from './duration.js';
import { PROVENANCE_SIGNER, readProxyPrefix } from './field-rules.js';
import { forgeUrlBase, type ForgeUrlKind } from './forge-url-template.js';
import { namingFormatIssues } from './naming-format.js';
import { urlFieldProblem } from './url-field.js';

/** What a check answers when it is not sure the schema would yield a value. */
export const DOUBT = Symbol('doubt');

/** A field's plain check: the value the schema yields for `value`, or DOUBT. */
export type PlainCheck = (value: unknown) => unknown;
type Check = PlainCheck;

const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const boolean: Check = (v) => (typeof v === 'boolean' ? v : DOUBT);

const oneOf =
  (...values: string[]): Check =>
  (v) =>
    isString(v) && values.includes(v) ? v : DOUBT;

const trimmedNonEmpty: Check = (v) => (isString(v) && v.trim().length > 0 ? v.trim() : DOUBT);

const proxySetting: Check = (v) => (isString(v) && v.trim().length <= 2048 ? v.trim() : DOUBT);

const wholeNumber =
  (min: number, max: number): Check =>
  (v) =>
    isNumber(v) && Number.isSafeInteger(v) && v >= min && v <= max ? v : DOUBT;

// Positive (above zero) and at most `max`.
const positive =
  (max: number): Check =>
  (v) =>
    isNumber(v) && v > 0 && v <= max ? v : DOUBT;

/** An http(s) URL field, trimmed, as the schema's httpUrl yields it. */
export const httpUrl: Check = (v) => (isString(v) && urlFieldProblem(v) === undefined ? v.trim() : DOUBT);

const forgeUrl =
  (kind: ForgeUrlKind): Check =>
  (v) => {
    const url = httpUrl(v);
    if (url === DOUBT) return DOUBT;
    const r = forgeUrlBase(url as string, kind);
    return 'base' in r ? r.base : DOUBT;
  };

const namingFormat: Check = (v) =>
  isString(v) && v.length > 0 && namingFormatIssues(v).length === 0 ? v : DOUBT;

const proxyPrefix: Check = (v) => {
  if (!isString(v) && !(Array.isArray(v) && v.every(isString))) return DOUBT;
  const r = readProxyPrefix(v);
  return 'value' in r ? r.value : DOUBT;
};

const provenanceSigner: Check = (v) => (isString(v) && PROVENANCE_SIGNER.test(v.trim()) ? v.trim() : DOUBT);

const releaseAge: Check = (v) => {
  if (!isString(v) && !isNumber(v)) return DOUBT;
  const r = parseDuration(v);
  return 'seconds' in r ? r.seconds : DOUBT;
};

const CATALOGUE_FORMATS = ['appimagehub', 'am', 'keeper'];

const catalogues: Check = (v) => {
  if (!Array.isArray(v) || v.length > 32) return DOUBT;
  const out: unknown[] = [];
  for (const entry of v as unknown[]) {
    if (isString(entry)) {
      const url = httpUrl(entry);
      if (url === DOUBT) return DOUBT;
      out.push(url);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return DOUBT;
    const keys = Object.keys(entry);
    if (keys.length !== 2 || !keys.includes('url') || !keys.includes('format')) return DOUBT;
    const { url, format } = entry as Record<string, unknown>;
    const checked = httpUrl(url);
    if (checked === DOUBT || !isString(format) || !CATALOGUE_FORMATS.includes(format)) return DOUBT;
    out.push({ url: checked, format });
  }
  return out;
};

/** The check of each config.yml field; a field without one always goes to the schema. */
export const PLAIN_CHECKS: Readonly<Record<string, Check>> = {
  storage_dir: trimmedNonEmpty,
  symlink_dir: trimmedNonEmpty,
  naming_format: namingFormat,
  manage_desktop_files: boolean,
  create_symlinks: boolean,
  segmented_downloads: boolean,
  delta: oneOf('auto', 'zsync', 'blockmap', 'off'),
  show_all: boolean,
  respect_rate_limits: boolean,
  hub_proxy: boolean,
  hub_proxy_prefix: proxyPrefix,
  hub_token: trimmedNonEmpty,
  hub_release_api_url: forgeUrl('hub-api'),
  hub_release_web_url: forgeUrl('hub-web'),
  lab_release_api_url: forgeUrl('lab-api'),
  lab_release_web_url: forgeUrl('lab-web'),
  download_connections: wholeNumber(1, 16),
  stall_timeout: positive(3600),
  min_rate: wholeNumber(0, Number.MAX_SAFE_INTEGER),
  app_timeout: positive(86400),
  notify: boolean,
  keep_previous: boolean,
  max_asset_size: wholeNumber(1, 2 ** 50),
  provenance: oneOf('off', 'warn', 'require'),
  provenance_signer: provenanceSigner,
  release_attestation: oneOf('auto', 'require', 'off'),
  signature: oneOf('off', 'tofu', 'require'),
  min_release_age: releaseAge,
  launch_fixes: boolean,
  https_proxy: proxySetting,
  http_proxy: proxySetting,
  no_proxy: proxySetting,
  auto_self_update: boolean,
  ca_file: trimmedNonEmpty,
  catalogues,
};

/**
 * The values the config schema yields for `data` (aliases already normalised) when every field has
 * a check and passes it; undefined otherwise. An empty field (`key:`) is "not set", as the schema
 * reads it.
 */
export function plainConfigValues(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const check = Object.hasOwn(PLAIN_CHECKS, key) ? PLAIN_CHECKS[key] : undefined;
    if (!check) return undefined;
    if (value === null) {
      out[key] = undefined;
      continue;
    }
    const checked = check(value);
    if (checked === DOUBT) return undefined;
    out[key] = checked;
  }
  return out;
}
