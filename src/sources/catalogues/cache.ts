/**
 * A catalogue as this run sees it: read from the cache under $XDG_CACHE_HOME/appimage-keeper/
 * catalogues/, revalidated with a conditional GET once it is 24 h old (or on --refresh), and used
 * stale, with a note, when the network fails. What is kept is the parsed entries (with the
 * validators), not the body: a search then costs one JSON.parse of our own file, not a schema pass
 * over thousands of untrusted items. A record of another CACHE_VERSION is refetched in full.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Context } from '../../context/context.js';
import { toKeeperError } from '../../core/errors.js';
import { readSmallFileSync } from '../../core/small-file.js';
import { request } from '../../http/http.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { readerFor } from './registry.js';
import { MAX_CATALOGUE_BYTES, type CatalogueEntry, type CatalogueRef } from './types.js';

/** How old a cached catalogue may be before it is revalidated. */
export const CATALOGUE_MAX_AGE_MS = 24 * 3600 * 1000;

const CACHE_VERSION = 1;

interface CacheRecord {
  version: number;
  url: string;
  format: string;
  etag?: string | undefined;
  lastModified?: string | undefined;
  fetchedAt: string;
  skipped: number;
  entries: CatalogueEntry[];
}

/** One catalogue loaded for this run. */
export interface LoadedCatalogue {
  ref: CatalogueRef;
  label: string;
  entries: CatalogueEntry[];
  /** ISO time of the copy in use; undefined when there is none. */
  fetchedAt: string | undefined;
  /** How this run got it: cache (fresh enough), 304, 200, stale (network failed), missing. */
  via: 'cache' | 'not-modified' | 'fetched' | 'stale' | 'missing';
  notes: string[];
}

/** Where `url`'s copy is cached. */
export function cacheFileOf(ctx: Context, url: string): string {
  const key = createHash('sha256').update(url).digest('hex').slice(0, 24);
  return join(ctx.paths.cacheDir, 'catalogues', `${key}.json`);
}

// Our own file, but in a folder anyone with the account can write: entries are checked for shape.
function isEntry(e: unknown): e is CatalogueEntry {
  if (typeof e !== 'object' || e === null) return false;
  const x = e as Record<string, unknown>;
  const optional = (k: string): boolean => x[k] === undefined || typeof x[k] === 'string';
  return (
    typeof x.name === 'string' &&
    typeof x.description === 'string' &&
    ['repository', 'download', 'script', 'homepage', 'license'].every(optional)
  );
}

function readCache(path: string, ref: CatalogueRef): CacheRecord | undefined {
  let file;
  try {
    // JSON escaping can double a text at most: anything larger was not written by us.
    file = readSmallFileSync(path, 2 * MAX_CATALOGUE_BYTES + 65536);
  } catch {
    return undefined;
  }
  if (file.kind !== 'text') return undefined;
  try {
    const rec = JSON.parse(file.text) as Partial<CacheRecord>;
    if (rec.version !== CACHE_VERSION || rec.url !== ref.url || rec.format !== ref.format) return undefined;
    if (typeof rec.fetchedAt !== 'string' || typeof rec.skipped !== 'number') return undefined;
    if (!Array.isArray(rec.entries) || !rec.entries.every(isEntry)) return undefined;
    return rec as CacheRecord;
  } catch {
    return undefined;
  }
}

async function writeCache(ctx: Context, path: string, rec: CacheRecord): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(rec), { root: ctx.paths.cacheDir, mode: 0o600 });
}

function skippedNote(ref: CatalogueRef, skipped: number): string[] {
  return skipped > 0 ? [`${ref.url}: left out ${skipped} malformed entries`] : [];
}

/** Options of `loadCatalogue`. */
export interface LoadOptions {
  /** Revalidate now whatever the age (`search --refresh`). */
  refresh?: boolean;
  /** Only the cache: no request at all (shell completion). */
  cacheOnly?: boolean;
  signal?: AbortSignal | undefined;
}

/** The catalogue `ref`, from the cache or the network as its age and `opts` say. */
export async function loadCatalogue(
  ctx: Context,
  ref: CatalogueRef,
  opts: LoadOptions = {},
): Promise<LoadedCatalogue> {
  const label = readerFor(ref.format).label;
  const path = cacheFileOf(ctx, ref.url);
  const cached = readCache(path, ref);
  const base = { ref, label };
  const fromCache = (via: LoadedCatalogue['via'], rec: CacheRecord, notes: string[]): LoadedCatalogue => ({
    ...base,
    entries: rec.entries,
    fetchedAt: rec.fetchedAt,
    via,
    notes: [...notes, ...skippedNote(ref, rec.skipped)],
  });
  const age = cached ? ctx.now().getTime() - Date.parse(cached.fetchedAt) : Infinity;
  if (cached && (opts.cacheOnly || (!opts.refresh && age >= 0 && age < CATALOGUE_MAX_AGE_MS)))
    return fromCache('cache', cached, []);
  if (opts.cacheOnly) return { ...base, entries: [], fetchedAt: undefined, via: 'missing', notes: [] };
  const headers: Record<string, string> = {};
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  else if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  const now = ctx.now().toISOString();
  let failure: string;
  try {
    const res = await request(ctx.http, ref.url, {
      headers,
      maxBodyBytes: MAX_CATALOGUE_BYTES,
      signal: opts.signal,
      timeoutMs: 60_000,
    });
    if (res.status === 304 && cached) {
      await writeCache(ctx, path, { ...cached, fetchedAt: now });
      return fromCache('not-modified', { ...cached, fetchedAt: now }, []);
    }
    if (res.status >= 200 && res.status < 300) {
      // Parsed before it is kept: a broken answer must not replace a good copy.
      const p = readerFor(ref.format).parse(res.text, ref.url);
      const rec: CacheRecord = {
        version: CACHE_VERSION,
        url: ref.url,
        format: ref.format,
        etag: res.headers.etag,
        lastModified: res.headers['last-modified'],
        fetchedAt: now,
        skipped: p.skipped,
        entries: p.entries,
      };
      await writeCache(ctx, path, rec);
      return fromCache('fetched', rec, []);
    }
    failure = `answered HTTP ${res.status}`;
  } catch (err) {
    const e = toKeeperError(err);
    if (e.code === 'INTERRUPTED' || opts.signal?.aborted) throw err;
    failure = e.message;
  }
  if (cached) {
    const day = cached.fetchedAt.slice(0, 16).replace('T', ' ');
    return fromCache('stale', cached, [`${label} (${ref.url}) ${failure}; using the copy from ${day} UTC`]);
  }
  return {
    ...base,
    entries: [],
    fetchedAt: undefined,
    via: 'missing',
    notes: [`${label} (${ref.url}) ${failure}; it has no cached copy yet`],
  };
}
