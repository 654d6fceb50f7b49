/**
 * The catalogue finder: a file without update information is matched against the configured
 * catalogues by what it says of itself (desktop Name, AppStream id, StartupWMClass, file name).
 * Confident = one source, named exactly by a desktop Name, AppStream id or StartupWMClass, whose
 * release fits the file (match-fit.ts); it is proposed and taken only once confirmed. Anything else (a file-name or partial match, several
 * sources tying) is a suggestion with the command that takes it, never taken.
 */
import { basename } from 'node:path';
import { toKeeperError } from '../../core/errors.js';
import { shellQuote } from '../../core/shell-quote.js';
import type { LoadedCatalogue } from '../../sources/catalogues/cache.js';
import { matchCatalogues, type CatalogueMatch, type IdentityHints } from '../../sources/catalogues/match.js';
import { isVersionedUrl, sourceKey, type EntrySource, type FoundEntry } from '../add/catalogue-source.js';
import { nameFromFileName } from './file-names.js';
import { matchFit } from './match-fit.js';
import type { AdoptInspection } from './inspect.js';
import type { FinderContext, FoundSource, SourceFinder } from './source-finders.js';

/** A catalogue entry the file may be, as the plan and `--json` show it. */
export interface CatalogueProposal {
  catalogue: string;
  entry: string;
  by: CatalogueMatch['by'];
  confidence: CatalogueMatch['confidence'];
  /** The repository or download URL the entry names. */
  source: string;
  /** A taken match: what in the release fits the file (match-fit.ts). */
  fit?: string | undefined;
}

/** A weak match, with the command that adopts the file from it. */
export interface CatalogueSuggestion extends CatalogueProposal {
  adopt: string;
}

/** What the catalogue finder needs from the run. */
export interface CatalogueLookups {
  /** The configured catalogues, loaded once per run (cache, revalidation, stale copies as `search`). */
  catalogues: () => Promise<LoadedCatalogue[]>;
  /** Where an entry's releases live (an AM entry costs one bounded GET of its script). */
  entrySource: (found: FoundEntry) => Promise<EntrySource>;
}

// Sources resolved per file: AM entries cost a request each, and a hostile catalogue may repeat a name.
const MAX_RESOLVED = 8;
const MAX_SUGGESTIONS = 5;

/** What the file says of itself, for matching. */
export function identityHints(insp: AdoptInspection): IdentityHints {
  const prefix = nameFromFileName(basename(insp.file)).replace(/[-_.]?(x86[-_]64|amd64|aarch64|arm64)$/i, '');
  return {
    desktopName: insp.displayName,
    appstreamId: insp.appStream.id,
    wmClass: insp.wmClass,
    filePrefix: prefix || undefined,
  };
}

function sourceText(s: EntrySource): string | undefined {
  if (s.kind === 'repository') return s.repository;
  if (s.kind === 'download' && !isVersionedUrl(s.url)) return s.url;
  return undefined;
}

interface Resolved {
  match: CatalogueMatch & { catalogue: LoadedCatalogue };
  source: string;
}

async function resolveAll(
  matches: (CatalogueMatch & { catalogue: LoadedCatalogue })[],
  lookups: CatalogueLookups,
  notes: string[],
): Promise<Resolved[]> {
  const out: Resolved[] = [];
  for (const match of matches.slice(0, MAX_RESOLVED)) {
    const s = await lookups.entrySource({ catalogue: match.catalogue, entry: match.entry });
    const source = sourceText(s);
    if (source !== undefined) out.push({ match, source });
    else if (match.confidence === 'confident')
      notes.push(
        `${match.catalogue.label} entry "${match.entry.name}" matches by ${match.by} but names no source to follow${s.kind === 'none' ? ` (${s.why})` : ''}`,
      );
  }
  return out;
}

function proposal(r: Resolved, confidence: CatalogueMatch['confidence']): CatalogueProposal {
  return {
    catalogue: r.match.catalogue.label,
    entry: r.match.entry.name,
    by: r.match.by,
    confidence,
    source: r.source,
  };
}

function suggest(file: string, r: Resolved): CatalogueSuggestion {
  return {
    ...proposal(r, 'weak'),
    adopt: `appimage-keeper adopt ${shellQuote(file)} --url ${shellQuote(r.source)}`,
  };
}

const keyOf = (source: string): string => sourceKey({ kind: 'repository', repository: source });

/** The catalogue finder over `lookups`. */
export function catalogueFinder(lookups: CatalogueLookups): SourceFinder {
  return async (insp: AdoptInspection, ctx: FinderContext): Promise<FoundSource | undefined> => {
    let loaded: LoadedCatalogue[];
    try {
      loaded = await lookups.catalogues();
    } catch (err) {
      ctx.notes.push(`no catalogue could be matched: ${toKeeperError(err).message}`);
      return undefined;
    }
    ctx.notes.push(...loaded.flatMap((c) => c.notes));
    const hints = identityHints(insp);
    const matches = loaded.flatMap((catalogue) =>
      matchCatalogues(hints, catalogue.entries).map((m) => ({ ...m, catalogue })),
    );
    const confident = await resolveAll(
      matches.filter((m) => m.confidence === 'confident'),
      lookups,
      ctx.notes,
    );
    const distinct = new Map<string, Resolved>();
    for (const r of confident) if (!distinct.has(keyOf(r.source))) distinct.set(keyOf(r.source), r);
    const weak = await resolveAll(
      matches.filter((m) => m.confidence === 'weak'),
      lookups,
      ctx.notes,
    );
    const suggestions = (chosen: Resolved | undefined): void => {
      const seen = new Set(chosen ? [keyOf(chosen.source)] : []);
      for (const r of [...(chosen ? [] : distinct.values()), ...weak]) {
        if (seen.has(keyOf(r.source)) || ctx.suggestions.length >= MAX_SUGGESTIONS) continue;
        seen.add(keyOf(r.source));
        ctx.suggestions.push(suggest(insp.file, r));
      }
    };
    if (distinct.size !== 1 || !ctx.fromUrl) {
      if (distinct.size > 1)
        ctx.notes.push(
          `${distinct.size} catalogue entries match by name with different sources; none is taken`,
        );
      suggestions(undefined);
      return undefined;
    }
    const [chosen] = [...distinct.values()] as [Resolved];
    const label = `${chosen.match.catalogue.label} entry "${chosen.match.entry.name}"`;
    try {
      const found = await ctx.fromUrl(chosen.source, ctx.name, {
        entry: label,
        hint: `to follow it all the same: appimage-keeper adopt ${shellQuote(insp.file)} --url ${shellQuote(chosen.source)}`,
      });
      ctx.notes.push(...found.notes);
      const fit = matchFit(insp, found, chosen.source, ctx.nodeArch);
      if (fit === undefined) {
        const ships =
          found.selects ?? (typeof found.strategy.url === 'string' ? found.strategy.url : 'its release');
        ctx.notes.push(
          `${label} matches by ${chosen.match.by}, but ${chosen.source} ships ${ships}, which nothing ties to ${basename(insp.file)} (neither its asset pattern nor the file's AppStream id): a suggestion, not taken`,
        );
        suggestions(undefined);
        return undefined;
      }
      suggestions(chosen);
      return {
        strategy: found.strategy,
        zsync: found.zsync,
        selects: found.selects,
        source: `${chosen.match.catalogue.label}: ${chosen.match.entry.name} → ${chosen.source}, by ${chosen.match.by}`,
        match: { ...proposal(chosen, 'confident'), fit },
        confirm: true,
      };
    } catch (err) {
      const e = toKeeperError(err);
      // An archived repository is the answer for this file, not one more thing tried.
      if (e.code === 'CATALOGUE_ENTRY_ARCHIVED' || e.code === 'INTERRUPTED') throw err;
      ctx.notes.push(`${label} matches by ${chosen.match.by}, but ${chosen.source}: ${e.message}`);
      suggestions(chosen);
      return undefined;
    }
  };
}
