/**
 * A reader for the exact shape `renderLockFile` writes: comment lines, `lock_version: 1`, `apps:`
 * and under it `  <app>:` with `    <key>: <one-line scalar>` lines. It answers what the yaml
 * library's `parseDocument(text).toJS()` answers or, on anything else or any doubt, undefined, and
 * the caller parses the text with the library (which also positions every problem). It exists for
 * `update --locked`: the library took about 40 ms for a lock of 50 apps, most of a run in which
 * nothing changes.
 */
import { doubt, readSubset } from './yaml-subset.js';

/** The keys of a lock entry, in the order `lock` writes them. */
export const LOCK_ENTRY_KEYS = [
  'source',
  'version',
  'tag',
  'identity',
  'asset',
  'url',
  'size',
  'sha256',
  'signing_key',
  'provenance_signer',
] as const;
const ENTRY_KEYS = new Set<string>(LOCK_ENTRY_KEYS);
/** The app-name rule of the lock's schema; anything else is the library's to read and refuse. */
const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Longer scalars are left to the library (and the schema bounds them anyway). */
const MAX_SCALAR = 8192;
// YAML 1.2 core-schema plain scalars that are not strings (null, booleans, integers, floats).
const NOT_A_STRING = [
  /^(?:~|[Nn]ull|NULL)$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^[-+]?[0-9]+$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
];
// A plain scalar starting with an indicator (or a space) is left to the library even where YAML
// would allow it.
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`. ]/;

/** A plain scalar that YAML reads as this very string, or a doubt. */
function plainString(text: string): string {
  if (text === '' || text.length > MAX_SCALAR || INDICATOR_START.test(text)) doubt();
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':') || text.endsWith(' ')) doubt();
  if (NOT_A_STRING.some((re) => re.test(text))) doubt();
  return text;
}

/** The string a one-line quoted scalar stands for (nothing may follow it), or a doubt. */
function quotedString(raw: string): string {
  const q = raw[0];
  if (raw.length < 2 || raw.length > MAX_SCALAR || raw[raw.length - 1] !== q) doubt();
  const inner = raw.slice(1, -1);
  if (q === '"') {
    if (inner.includes('\\') || inner.includes('"')) doubt();
    return inner;
  }
  // Single quotes: `''` is one quote; a lone quote would have ended the scalar early.
  if (inner.replaceAll("''", '').includes("'")) doubt();
  return inner.replaceAll("''", "'");
}

function scalar(raw: string): string {
  return raw[0] === '"' || raw[0] === "'" ? quotedString(raw) : plainString(raw);
}

/** `key: value` or `key:` at the start of `content`; the key must be a plain string. */
function splitKey(content: string): { key: string; value: string | undefined } {
  const colon = content.indexOf(':');
  if (colon <= 0) doubt();
  const key = plainString(content.slice(0, colon));
  const rest = content.slice(colon + 1);
  if (rest === '') return { key, value: undefined };
  if (rest[0] !== ' ' || rest[1] === ' ' || rest.length < 2) doubt();
  return { key, value: rest.slice(1) };
}

function read(text: string): Record<string, unknown> {
  const apps: Record<string, Record<string, unknown>> = {};
  const top: Record<string, unknown> = {};
  let entry: Record<string, unknown> | undefined;
  let inApps = false;
  // `apps:` with nothing under it is null to YAML, not an empty mapping.
  let appsBlock = false;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const content = line.trimStart();
    const indent = line.length - content.length;
    if (content.startsWith('#')) doubt();
    const { key, value } = splitKey(content);
    if (indent === 0) {
      entry = undefined;
      inApps = false;
      if (Object.hasOwn(top, key)) doubt();
      if (key === 'lock_version' && value === '1') top[key] = 1;
      else if (key === 'apps' && value === undefined) {
        top[key] = apps;
        inApps = true;
        appsBlock = true;
      } else if (key === 'apps' && value === '{}') top[key] = apps;
      else doubt();
    } else if (indent === 2 && inApps) {
      if (value !== undefined || !APP_NAME.test(key) || Object.hasOwn(apps, key)) doubt();
      entry = {};
      apps[key] = entry;
    } else if (indent === 4 && entry) {
      if (value === undefined || !ENTRY_KEYS.has(key) || Object.hasOwn(entry, key)) doubt();
      if (key === 'size') {
        if (!/^(?:0|[1-9][0-9]{0,14})$/.test(value)) doubt();
        entry[key] = Number(value);
      } else entry[key] = scalar(value);
    } else doubt();
  }
  if (!Object.hasOwn(top, 'apps') || !Object.hasOwn(top, 'lock_version')) doubt();
  // So is an entry without keys.
  if (appsBlock && Object.keys(apps).length === 0) doubt();
  if (Object.values(apps).some((e) => Object.keys(e).length === 0)) doubt();
  return top;
}

/**
 * The value of `text` when it is a lock file in the exact shape `renderLockFile` writes, as the
 * yaml library would read it; undefined when it is anything else or the reader has any doubt.
 */
export function readLockText(text: string): Record<string, unknown> | undefined {
  return readSubset(text, read);
}
