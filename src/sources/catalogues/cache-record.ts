/**
 * The cached copy of one catalogue: our own compact record of the entries a reader accepted (with
 * the validators), never the fetched body. Each entry is a tuple, and a field the catalogue's URL
 * or the entry's repository already says (an AM script URL, a hub homepage) is stored as 1, so a
 * search from the cache costs one small JSON.parse and a hand-written check of each entry's shape
 * and bounds, with no zod schema loaded. The file sits in a folder anyone with the account can
 * write: anything unexpected reads as no copy, and the catalogue is fetched and parsed in full again.
 */
import { join } from 'node:path';
import type { Context } from '../../context/context.js';
import { readSmallFileSync } from '../../core/small-file.js';
import { amScriptUrl } from './am.js';
import { hubPageOf } from './text-fields.js';
import {
  MAX_CATALOGUE_BYTES,
  MAX_CATALOGUE_ENTRIES,
  MAX_FIELD,
  type CatalogueEntry,
  type CatalogueRef,
} from './types.js';

/** The file's layout; a file of another version is not read (the catalogue is refetched). */
export const CACHE_VERSION = 2;

/** What is kept of one catalogue, as this run uses it. */
export interface CacheRecord {
  etag?: string | undefined;
  lastModified?: string | undefined;
  fetchedAt: string;
  skipped: number;
  entries: CatalogueEntry[];
}

/** The folder of the cached catalogues. */
export function cacheDirOf(ctx: Context): string {
  return join(ctx.paths.cacheDir, 'catalogues');
}

/**
 * Where `url`'s copy is cached. The name is a 64-bit FNV-1a of the URL, not a SHA-256: it only
 * spreads URLs over names (the record holds its URL, checked on read, so a collision costs a
 * refetch), and node:crypto would be most of what a search from the cache loads beyond `list`.
 */
export function cacheFileOf(ctx: Context, url: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(url, 'utf8'))
    h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return join(cacheDirOf(ctx), `${h.toString(16).padStart(16, '0')}.json`);
}

// Tuple slots: name, description, repository, download, script, homepage, license, repackaged,
// recipe; absent fields are null, and trailing nulls are left out.
const SLOTS = 9;
// Stands for the field its entry implies: the list's script URL, the repository's hub page.
const IMPLIED = 1;
const URL_MAX = 2000;
const NAME_MAX = 200;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/;
// A validator is sent back as a request header: visible ASCII only, of a sane length.
const VALIDATOR = /^[\x20-\x7e]{1,1024}$/;

const hubPage = (repository: string | undefined): string | undefined =>
  repository === undefined ? undefined : hubPageOf(repository);

function encodeEntry(e: CatalogueEntry, ref: CatalogueRef): unknown[] {
  const t: unknown[] = [
    e.name,
    e.description,
    e.repository ?? null,
    e.download ?? null,
    e.script === undefined ? null : e.script === amScriptUrl(ref.url, e.name) ? IMPLIED : e.script,
    e.homepage === undefined ? null : e.homepage === hubPage(e.repository) ? IMPLIED : e.homepage,
    e.license ?? null,
    e.repackaged ?? null,
    e.recipe ?? null,
  ];
  while (t.length > 2 && t[t.length - 1] === null) t.pop();
  return t;
}

/** The file's text for `rec` of `ref`. */
export function encodeCache(ref: CatalogueRef, rec: CacheRecord): string {
  return JSON.stringify({
    version: CACHE_VERSION,
    url: ref.url,
    format: ref.format,
    etag: rec.etag,
    lastModified: rec.lastModified,
    fetchedAt: rec.fetchedAt,
    skipped: rec.skipped,
    entries: rec.entries.map((e) => encodeEntry(e, ref)),
  });
}

// A string of at most `max` characters, or null (absent); anything else is not ours.
function optText(v: unknown, max: number): string | undefined | false {
  if (v === null || v === undefined) return undefined;
  return typeof v === 'string' && v.length <= max ? v : false;
}

// What decoding one catalogue's entries needs, worked out once per file.
interface DecodeScope {
  scriptMax: number;
  /** The list's script folder (`…/programs/x86_64/`), for AM's implied script URLs. */
  scriptFolder: string | undefined;
}

// Indexed reads, not destructuring: this runs for thousands of entries in a process that has not
// optimised it, where the iterator protocol costs more than the checks.
function decodeEntry(t: unknown, scope: DecodeScope): CatalogueEntry | undefined {
  if (!Array.isArray(t) || t.length < 2 || t.length > SLOTS) return undefined;
  const name: unknown = t[0];
  const description: unknown = t[1];
  if (typeof name !== 'string' || name === '' || name.length > NAME_MAX) return undefined;
  if (typeof description !== 'string' || description.length > MAX_FIELD) return undefined;
  const e: CatalogueEntry = { name, description };
  if (t.length === 2) return e;
  const repository = optText(t[2], URL_MAX);
  const download = optText(t[3], URL_MAX);
  const license = optText(t[6], MAX_FIELD);
  if (repository === false || download === false || license === false) return undefined;
  if (repository !== undefined) e.repository = repository;
  if (download !== undefined) e.download = download;
  const script: unknown = t[4];
  if (script === IMPLIED) {
    if (scope.scriptFolder === undefined) return undefined;
    e.script = scope.scriptFolder + encodeURIComponent(name);
  } else {
    const s = optText(script, scope.scriptMax);
    if (s === false) return undefined;
    if (s !== undefined) e.script = s;
  }
  const home: unknown = t[5];
  if (home === IMPLIED) {
    if (repository === undefined) return undefined;
    e.homepage = hubPage(repository);
  } else {
    const h = optText(home, URL_MAX);
    if (h === false) return undefined;
    if (h !== undefined) e.homepage = h;
  }
  if (license !== undefined) e.license = license;
  const repackaged: unknown = t[7];
  if (repackaged !== null && repackaged !== undefined) {
    if (typeof repackaged !== 'boolean') return undefined;
    e.repackaged = repackaged;
  }
  const recipe: unknown = t[8];
  if (recipe !== null && recipe !== undefined) {
    if (typeof recipe !== 'object' || Array.isArray(recipe)) return undefined;
    e.recipe = recipe as Record<string, unknown>;
  }
  return e;
}

function isValidator(v: unknown): v is string | undefined {
  return v === undefined || (typeof v === 'string' && VALIDATOR.test(v));
}

/** A server's ETag or Last-Modified as the record may keep it; undefined (not kept) when it is not sane. */
export function keptValidator(v: string | undefined): string | undefined {
  return v !== undefined && VALIDATOR.test(v) ? v : undefined;
}

/** The cached copy of `ref` at `path`; undefined when there is none or it is not one we wrote. */
export function readCache(path: string, ref: CatalogueRef): CacheRecord | undefined {
  let file;
  try {
    // JSON escaping can double a text at most: anything larger was not written by us.
    file = readSmallFileSync(path, 2 * MAX_CATALOGUE_BYTES + 65536);
  } catch {
    return undefined;
  }
  if (file.kind !== 'text') return undefined;
  let raw: unknown;
  try {
    // A nesting deep enough to exhaust the stack throws here too.
    raw = JSON.parse(file.text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (r.version !== CACHE_VERSION || r.url !== ref.url || r.format !== ref.format) return undefined;
  const { etag, lastModified, fetchedAt, skipped } = r;
  if (typeof fetchedAt !== 'string' || !ISO_TIME.test(fetchedAt)) return undefined;
  if (typeof skipped !== 'number' || !Number.isSafeInteger(skipped) || skipped < 0) return undefined;
  if (!isValidator(etag) || !isValidator(lastModified)) return undefined;
  if (!Array.isArray(r.entries) || r.entries.length > MAX_CATALOGUE_ENTRIES) return undefined;
  // The readers' bounds; a script URL is the list's folder plus an encoded name.
  const scope = { scriptMax: ref.url.length + 3 * NAME_MAX, scriptFolder: amScriptUrl(ref.url, '') };
  const list = r.entries as unknown[];
  const entries: CatalogueEntry[] = new Array<CatalogueEntry>(list.length);
  for (let i = 0; i < list.length; i++) {
    const e = decodeEntry(list[i], scope);
    if (e === undefined) return undefined;
    entries[i] = e;
  }
  return { etag, lastModified, fetchedAt, skipped, entries };
}
