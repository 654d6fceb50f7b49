/**
 * A catalogue as this run sees it: read from the cache under $XDG_CACHE_HOME/appimage-keeper/
 * catalogues/ (cache-record.ts), revalidated with a conditional GET once it is 24 h old (or on
 * --refresh; revalidate.ts, loaded only then), and used stale, with a note, when the network fails.
 */
import type { Context } from '../../context/context.js';
import { cacheFileOf, readCache, type CacheRecord } from './cache-record.js';
import { CATALOGUE_LABELS, type CatalogueEntry, type CatalogueRef } from './types.js';

/** How old a cached catalogue may be before it is revalidated. */
export const CATALOGUE_MAX_AGE_MS = 24 * 3600 * 1000;

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
  const label = CATALOGUE_LABELS[ref.format];
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
  const { revalidateCatalogue } = await import('./revalidate.js');
  const r = await revalidateCatalogue(ctx, ref, path, cached, opts.signal);
  if (r.ok) return fromCache(r.via, r.rec, []);
  if (cached) {
    const day = cached.fetchedAt.slice(0, 16).replace('T', ' ');
    return fromCache('stale', cached, [`${label} (${ref.url}) ${r.failure}; using the copy from ${day} UTC`]);
  }
  return {
    ...base,
    entries: [],
    fetchedAt: undefined,
    via: 'missing',
    notes: [`${label} (${ref.url}) ${r.failure}; it has no cached copy yet`],
  };
}
