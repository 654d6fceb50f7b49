/**
 * The cached copy of one catalogue: our own compact record of the entries a reader accepted (with
 * the validators), never the fetched body. A header line, then one line per entry: a tuple, where
 * a field the catalogue's URL or the entry's repository already says (an AM script URL, a hub
 * homepage) is stored as 1. A search from the cache reads it line by line (a large catalogue is
 * never one string and one tree in memory) with a hand-written check of each entry's shape and
 * bounds, and no zod schema loaded. The file sits in a folder anyone with the account can
 * write: anything unexpected reads as no copy, and the catalogue is fetched and parsed in full again.
 */
import { join } from 'node:path';
import type { Context } from '../../context/context.js';
import { readFileLinesSync } from '../../core/small-file.js';
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
export const CACHE_VERSION = 3;

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

/** The file's bytes for `rec` of `ref`: the header line, then one line per entry. */
export function encodeCache(ref: CatalogueRef, rec: CacheRecord): Buffer {
  const header = {
    version: CACHE_VERSION,
    url: ref.url,
    format: ref.format,
    etag: rec.etag,
    lastModified: rec.lastModified,
    fetchedAt: rec.fetchedAt,
    skipped: rec.skipped,
    entries: rec.entries.length,
  };
  // Line by line into one buffer of the exact size (each line is encoded twice, to measure it and
  // to write it): never the whole record as one string, two bytes a character as soon as one
  // description is not Latin-1, nor a copy of every line. JSON.stringify escapes every newline.
  const lineOf = (i: number): string =>
    JSON.stringify(i < 0 ? header : encodeEntry(rec.entries[i] as CatalogueEntry, ref));
  let size = 0;
  for (let i = -1; i < rec.entries.length; i++) size += Buffer.byteLength(lineOf(i)) + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = -1; i < rec.entries.length; i++) {
    at += out.write(lineOf(i), at);
    out[at++] = 0x0a;
  }
  return out;
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

// The longest line we write: an entry's fields at their bounds, JSON escaping at most six bytes a
// character (a keeper recipe is an item of at most 64 KiB).
const MAX_LINE_BYTES = 512 * 1024;
// The header's check, with the number of entry lines that must follow.
type Header = Omit<CacheRecord, 'entries'> & { count: number };

function readHeader(line: Buffer, ref: CatalogueRef): Header | undefined {
  const raw: unknown = JSON.parse(line.toString('utf8'));
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (r.version !== CACHE_VERSION || r.url !== ref.url || r.format !== ref.format) return undefined;
  const { etag, lastModified, fetchedAt, skipped, entries: count } = r;
  if (typeof fetchedAt !== 'string' || !ISO_TIME.test(fetchedAt)) return undefined;
  if (typeof skipped !== 'number' || !Number.isSafeInteger(skipped) || skipped < 0) return undefined;
  if (!isValidator(etag) || !isValidator(lastModified)) return undefined;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0 || count > MAX_CATALOGUE_ENTRIES)
    return undefined;
  return { etag, lastModified, fetchedAt, skipped, count };
}

/** Thrown inside the line reader to stop at the first line that is not ours. */
class NotOurs extends Error {}

/** The cached copy of `ref` at `path`; undefined when there is none or it is not one we wrote. */
export function readCache(path: string, ref: CatalogueRef): CacheRecord | undefined {
  // The readers' bounds; a script URL is the list's folder plus an encoded name.
  const scope = { scriptMax: ref.url.length + 3 * NAME_MAX, scriptFolder: amScriptUrl(ref.url, '') };
  let header: Header | undefined;
  const entries: CatalogueEntry[] = [];
  const onLine = (line: Buffer): void => {
    // A nesting deep enough to exhaust the stack throws in JSON.parse too.
    if (header === undefined) header = readHeader(line, ref);
    else if (entries.length < header.count) {
      const e = decodeEntry(JSON.parse(line.toString('utf8')), scope);
      if (e !== undefined) entries.push(e);
      else throw new NotOurs();
    } else throw new NotOurs();
    if (header === undefined) throw new NotOurs();
  };
  try {
    // JSON escaping can double a text at most: anything larger was not written by us.
    const read = readFileLinesSync(path, 2 * MAX_CATALOGUE_BYTES + 65536, MAX_LINE_BYTES, onLine);
    if (read !== 'read' || header === undefined || entries.length !== header.count) return undefined;
  } catch {
    return undefined;
  }
  const { etag, lastModified, fetchedAt, skipped } = header;
  return { etag, lastModified, fetchedAt, skipped, entries };
}
