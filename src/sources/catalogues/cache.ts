/**
 * A catalogue as this run sees it: read from the cache under $XDG_CACHE_HOME/appimage-keeper/
 * catalogues/, revalidated with a conditional GET once it is 24 h old (or on --refresh), and used
 * stale, with a note, when the network fails. The cached text is parsed each time: the entries are
 * derived data, the body the server sent is the record.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Context } from '../../core/context.js';
import { toKeeperError } from '../../core/errors.js';
import { readSmallFileSync } from '../../core/small-file.js';
import { request } from '../../http/http.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { readerFor } from './registry.js';
import { MAX_CATALOGUE_BYTES, type CatalogueEntry, type CatalogueRef } from './types.js';

/** How old a cached catalogue may be before it is revalidated. */
export const CATALOGUE_MAX_AGE_MS = 24 * 3600 * 1000;

interface CacheRecord {
  url: string;
  etag?: string | undefined;
  lastModified?: string | undefined;
  fetchedAt: string;
  body: string;
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

function readCache(path: string, url: string): CacheRecord | undefined {
  let file;
  try {
    // JSON escaping can double a body at most: anything larger was not written by us.
    file = readSmallFileSync(path, 2 * MAX_CATALOGUE_BYTES + 65536);
  } catch {
    return undefined;
  }
  if (file.kind !== 'text') return undefined;
  try {
    const rec = JSON.parse(file.text) as Partial<CacheRecord>;
    if (rec.url !== url || typeof rec.body !== 'string' || typeof rec.fetchedAt !== 'string')
      return undefined;
    return rec as CacheRecord;
  } catch {
    return undefined;
  }
}

async function writeCache(ctx: Context, path: string, rec: CacheRecord): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(rec), { root: ctx.paths.cacheDir, mode: 0o600 });
}

function parsed(ref: CatalogueRef, body: string): { entries: CatalogueEntry[]; notes: string[] } {
  const r = readerFor(ref.format).parse(body, ref.url);
  const notes = r.skipped > 0 ? [`${ref.url}: left out ${r.skipped} malformed entries`] : [];
  return { entries: r.entries, notes };
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
  const cached = readCache(path, ref.url);
  const base = { ref, label };
  const fromCache = (via: LoadedCatalogue['via'], rec: CacheRecord, notes: string[]): LoadedCatalogue => {
    const p = parsed(ref, rec.body);
    return { ...base, entries: p.entries, fetchedAt: rec.fetchedAt, via, notes: [...notes, ...p.notes] };
  };
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
      const p = parsed(ref, res.text);
      const rec: CacheRecord = {
        url: ref.url,
        etag: res.headers.etag,
        lastModified: res.headers['last-modified'],
        fetchedAt: now,
        body: res.text,
      };
      await writeCache(ctx, path, rec);
      return { ...base, entries: p.entries, fetchedAt: now, via: 'fetched', notes: p.notes };
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
