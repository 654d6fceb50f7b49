/** `search TERM...`: catalogue entries whose name or description holds every term, best first. */
import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import type { GlobalSettings } from '../config/types.js';
import { entryRank, searchTerms } from '../sources/catalogues/rank.js';
import { isRepackaged } from '../sources/catalogues/repackagers.js';
import type { LoadedCatalogue } from '../sources/catalogues/cache.js';
import type { CatalogueEntry } from '../sources/catalogues/types.js';
import { loadCatalogues } from './catalogues.js';
import { compareNames, namePrimaryKey } from '../core/compare-names.js';

/** One search hit. */
export interface SearchHit {
  name: string;
  description: string;
  /** `owner/repo` or a repository URL; null when only a download or an AM script names the source. */
  repository: string | null;
  download: string | null;
  catalogue: string;
  catalogueUrl: string;
  repackaged: boolean;
  rank: number;
}

/** What `search` found, and the notes about the catalogues it read. */
export interface SearchResult {
  terms: string[];
  hits: SearchHit[];
  catalogues: {
    label: string;
    url: string;
    via: LoadedCatalogue['via'];
    fetchedAt: string | null;
    entries: number;
  }[];
  notes: string[];
}

/** Ranks `entries` of each catalogue for `terms` (lower case); pure, for the benchmark and tests. */
export function rankEntries(catalogues: readonly LoadedCatalogue[], terms: readonly string[]): SearchHit[] {
  const keyed: Keyed[] = [];
  for (const c of catalogues)
    for (const e of c.entries) {
      const rank = entryRank(e, terms);
      if (rank !== undefined) keyed.push({ hit: hitOf(c, e, rank), key: namePrimaryKey(e.name) });
    }
  keyed.sort(
    (a, b) => a.hit.rank - b.hit.rank || byName(a, b) || compareNames(a.hit.catalogue, b.hit.catalogue),
  );
  return keyed.map((k) => k.hit);
}

interface Keyed {
  hit: SearchHit;
  key: string | undefined;
}

// compareNames' order, by the plain keys where they differ (a search may sort thousands of hits).
function byName(a: Keyed, b: Keyed): number {
  if (a.key === undefined || b.key === undefined || a.key === b.key)
    return compareNames(a.hit.name, b.hit.name);
  return a.key < b.key ? -1 : 1;
}

function hitOf(c: LoadedCatalogue, e: CatalogueEntry, rank: number): SearchHit {
  return {
    name: e.name,
    description: e.description,
    repository: e.repository ?? null,
    download: e.download ?? null,
    catalogue: c.label,
    catalogueUrl: c.ref.url,
    repackaged: isRepackaged(e, e.repository),
    rank,
  };
}

/** Searches the configured catalogues (revalidated now with `refresh`). */
export async function searchCatalogues(
  ctx: Context,
  global: Pick<GlobalSettings, 'catalogues'>,
  input: readonly string[],
  opts: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<SearchResult> {
  const terms = searchTerms(input);
  if (terms.length === 0) throw new UsageError('SEARCH_NO_TERM', 'search needs at least one term');
  const loaded = await loadCatalogues(ctx, global, opts);
  return {
    terms,
    hits: rankEntries(loaded, terms),
    catalogues: loaded.map((c) => ({
      label: c.label,
      url: c.ref.url,
      via: c.via,
      fetchedAt: c.fetchedAt ?? null,
      entries: c.entries.length,
    })),
    notes: loaded.flatMap((c) => c.notes),
  };
}
