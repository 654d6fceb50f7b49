/**
 * Where updates of an AppImage without update information come from. Each finder looks at the
 * inspection and proposes a source or passes; the first proposal wins. The catalogue matcher
 * (catalogue-finder.ts) comes after AppStream and needs the run's catalogues, so `adopt` adds it.
 */
import { basename } from 'node:path';
import { KeeperError, toKeeperError } from '../../core/errors.js';
import { shellQuote } from '../../core/shell-quote.js';
import type { ForgeRelease } from '../../sources/forge/release.js';
import { deriveAssetMatch, patternFields } from '../add/recipe-from-release.js';
import type { RecipeDraft } from '../add/recipe-text.js';
import type { CatalogueProposal, CatalogueSuggestion } from './catalogue-finder.js';
import type { AdoptInspection } from './inspect.js';

/** A source proposed for a file: the recipe's strategy part and where it came from, in words. */
export interface FoundSource {
  strategy: Record<string, unknown>;
  /** `AppStream vcs-browser https://…`, `AppImageHub: Obsidian → …, by desktop Name`. */
  source: string;
  zsync?: RecipeDraft['zsync'];
  /** The release asset the strategy selects today (checked when the recipe is written). */
  selects?: string | undefined;
  /** The catalogue entry matched, when a catalogue named the source. */
  match?: CatalogueProposal | undefined;
  /** A guess: taken only with --yes or a yes on the terminal. */
  confirm?: boolean | undefined;
}

/** A catalogue entry's source turned into a recipe as `add URL` would, refusing an archived repository. */
export type FromUrl = (
  url: string,
  name: string,
  refuseArchived?: { entry: string; hint: string },
) => Promise<FoundSource & { notes: string[] }>;

/** What a finder may use besides the inspection. */
export interface FinderContext {
  nodeArch: string;
  /** The app name the plan chose. */
  name: string;
  /** The latest release of a forge repository. */
  lookupRelease: (repository: string) => Promise<ForgeRelease>;
  /** Whether a repository URL belongs to the hub or the lab (configured hosts included). */
  isKnownForge: (url: string) => boolean;
  /** The repository a URL points into, as a recipe writes it. */
  repositoryOf: (url: string) => string | undefined;
  /** Notes shown with the plan (what was tried and why it was not taken). */
  notes: string[];
  /** Weak catalogue matches, shown with the plan and never taken. */
  suggestions: CatalogueSuggestion[];
  /** Reads a source as `add` reads a URL (catalogue matches go through it). */
  fromUrl?: FromUrl | undefined;
}

/** One way of finding a source; undefined when it has nothing to propose. */
export type SourceFinder = (insp: AdoptInspection, ctx: FinderContext) => Promise<FoundSource | undefined>;

/** The forge named by the AppStream `vcs-browser`, then `homepage` URL: its latest release. */
export const appStreamFinder: SourceFinder = async (insp, ctx) => {
  const candidates: [string, string | undefined][] = [
    ['vcs-browser', insp.appStream.vcsBrowser],
    ['homepage', insp.appStream.homepage],
  ];
  const tried: string[] = [];
  for (const [kind, url] of candidates) {
    if (!url || !ctx.isKnownForge(url)) continue;
    const repository = ctx.repositoryOf(url);
    if (!repository) continue;
    try {
      const release = await ctx.lookupRelease(repository);
      const derived = deriveAssetMatch(release, ctx.nodeArch, {
        versionHints: insp.version ? [insp.version] : [],
      });
      ctx.notes.push(...derived.notes);
      const strategy: Record<string, unknown> = { strategy: 'forge', repository, ...patternFields(derived) };
      return { strategy, source: `AppStream ${kind} ${repository}`, selects: derived.asset.name };
    } catch (err) {
      tried.push(`${repository}: ${toKeeperError(err).message}`);
    }
  }
  ctx.notes.push(...tried);
  return undefined;
};

/** The finders tried, in order, for a file without update information. */
export const DEFAULT_FINDERS: readonly SourceFinder[] = [appStreamFinder];

/** How to name the source of `file` by hand: commands that work as they are when pasted. */
export function noSourceHint(file: string, name: string): string {
  return (
    `name its source: appimage-keeper adopt ${shellQuote(file)} --url URL ` +
    `(the project's repository or download URL), or install it afresh: appimage-keeper add ${shellQuote(name)}`
  );
}

/**
 * The source of a file without update information: the first finder's proposal, else
 * ADOPT_NO_SOURCE naming what was tried and how to name the source.
 */
export async function findSource(
  insp: AdoptInspection,
  ctx: FinderContext,
  finders: readonly SourceFinder[] = DEFAULT_FINDERS,
): Promise<FoundSource> {
  for (const finder of finders) {
    const found = await finder(insp, ctx);
    if (found) return found;
  }
  const tried = ctx.notes.length ? ` (${ctx.notes.join('; ')})` : '';
  const first = ctx.suggestions[0];
  throw new KeeperError(
    'ADOPT_NO_SOURCE',
    `${basename(insp.file)} carries no update information, no AppStream URL of a known forge, and matches no catalogue entry with confidence${tried}`,
    {
      hint: first
        ? `it may be ${first.catalogue} entry "${first.entry}" (by ${first.by}): ${first.adopt}; otherwise ${noSourceHint(insp.file, ctx.name)}`
        : noSourceHint(insp.file, ctx.name),
      details: { suggestions: ctx.suggestions },
    },
  );
}
