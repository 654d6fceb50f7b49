/**
 * `add NAME`: a bare name is looked up in the catalogues. One clear source → the same inference as
 * `add URL` on its live release, the recipe named NAME; several → the candidates (exit 2); an entry
 * without a usable source → one error naming the entry and what was found.
 */
import type { Workspace } from '../../config/workspace.js';
import { KeeperError, toKeeperError } from '../../core/errors.js';
import { shellCommand, shellQuote } from '../../core/shell-quote.js';
import { isRepackaged } from '../../sources/catalogues/repackagers.js';
import { entryRank } from '../../sources/catalogues/rank.js';
import { slugAppName } from '../adopt/plan.js';
import { loadCatalogues } from '../catalogues.js';
import type { Run } from '../run.js';
import { addFromUrl, type AddOptions, type AddResult } from './add.js';
import { isPasteableName } from './catalogue-name.js';
import { recipeText, writeNewRecipe, type RecipeDraft } from './recipe-text.js';
import {
  entrySource,
  isVersionedUrl,
  sourceKey,
  type EntrySource,
  type FoundEntry,
} from './catalogue-source.js';

/** The catalogue entry a recipe came from, as `add NAME` records it. */
export interface CatalogueOrigin {
  catalogue: string;
  url: string;
  entry: string;
}

/** One candidate of an ambiguous NAME. */
export interface NameCandidate {
  name: string;
  catalogue: string;
  source: string;
  repackaged: boolean;
  /** The command that adds exactly this one. */
  add: string;
}

function describe(f: FoundEntry): string {
  return `${f.catalogue.label} entry "${f.entry.name}"`;
}

// The command that adds `target` (a repository or download URL from a catalogue) as app `name`.
function addTarget(target: string, name: string | undefined): string {
  return shellCommand(['appimage-keeper', 'add', target, ...(name === undefined ? [] : ['--name', name])]);
}

function addCommandFor(s: EntrySource, name: string | undefined): string {
  return addTarget(s.kind === 'repository' ? s.repository : s.kind === 'download' ? s.url : '', name);
}

function suggestions(name: string, found: FoundEntry[][]): string {
  const close = found
    .flat()
    .map((f) => ({ f, r: entryRank(f.entry, [name.toLowerCase()]) }))
    .filter((x): x is { f: FoundEntry; r: number } => x.r !== undefined && x.r <= 3)
    .sort((a, b) => a.r - b.r)
    .slice(0, 5)
    .map((x) => x.f.entry.name)
    .filter(isPasteableName);
  const search = shellCommand(['appimage-keeper', 'search'], [name]);
  return close.length > 0
    ? `did you mean ${[...new Set(close)].map(shellQuote).join(', ')}? (${search})`
    : `try ${search}, or add a repository URL`;
}

/** Looks NAME up and adds the one source it names (written unless dry run). */
export async function addByName(
  input: string,
  opts: AddOptions,
  ws: Workspace,
  run: Run,
): Promise<AddResult & { catalogue: CatalogueOrigin }> {
  const wanted = input.trim();
  const loaded = await loadCatalogues(run.ctx, ws.global, { signal: run.signal });
  const notes = loaded.flatMap((c) => c.notes);
  const all = loaded.map((c) => c.entries.map((entry) => ({ catalogue: c, entry })));
  const found = all.flat().filter((f) => f.entry.name.toLowerCase() === wanted.toLowerCase());
  if (found.length === 0)
    throw new KeeperError('CATALOGUE_NO_MATCH', `no catalogue lists an app named ${wanted}`, {
      hint: suggestions(wanted, all),
      exitCode: 2,
    });
  const sources = await Promise.all(found.map(async (f) => ({ f, s: await entrySource(f, run) })));
  const usable = new Map<string, { f: FoundEntry; s: EntrySource }>();
  for (const x of sources)
    if (x.s.kind !== 'none' && !usable.has(sourceKey(x.s))) usable.set(sourceKey(x.s), x);
  // A name with no usable slug (`网易云音乐`) leaves the app name to the release asset, as `add URL` does.
  const name = opts.name ?? slugAppName(wanted);
  if (usable.size === 0) {
    const script = sources.map(({ s }) => (s.kind === 'none' ? s.script : undefined)).find(Boolean);
    throw new KeeperError(
      'CATALOGUE_ENTRY_UNUSABLE',
      sources
        .map(({ f, s }) => `${describe(f)} has no usable source: ${s.kind === 'none' ? s.why : ''}`)
        .join('; '),
      {
        hint: script
          ? `read ${script} to see which repository it installs from, then: ${shellCommand(['appimage-keeper', 'add', 'OWNER/REPO', '--name', name ?? wanted])}`
          : 'add the app by its repository or download URL instead',
      },
    );
  }
  if (usable.size > 1) {
    const candidates: NameCandidate[] = [...usable.values()].map(({ f, s }) => ({
      name: f.entry.name,
      catalogue: f.catalogue.label,
      source: s.kind === 'repository' ? s.repository : s.kind === 'download' ? s.url : 'recipe',
      repackaged: isRepackaged(f.entry, s.kind === 'repository' ? s.repository : undefined),
      add: addCommandFor(s, name),
    }));
    throw new KeeperError(
      'ADD_NAME_AMBIGUOUS',
      `${candidates.length} catalogue entries are named ${wanted}`,
      {
        hint: `choose one: ${candidates.map((c) => c.add).join(' | ')}`,
        exitCode: 2,
        details: { candidates },
      },
    );
  }
  const [{ f, s }] = [...usable.values()] as [{ f: FoundEntry; s: EntrySource }];
  const origin: CatalogueOrigin = {
    catalogue: f.catalogue.label,
    url: f.catalogue.ref.url,
    entry: f.entry.name,
  };
  const comment = [`catalogue: ${origin.catalogue} ${origin.url} entry ${origin.entry}`];
  const result = await fromSource(f, s, { ...opts, name, comment }, ws, run);
  return { ...result, notes: [...notes, ...result.notes], catalogue: origin };
}

async function fromSource(
  f: FoundEntry,
  s: EntrySource,
  opts: AddOptions,
  ws: Workspace,
  run: Run,
): Promise<AddResult> {
  if (s.kind === 'recipe') return fromRecipe(f, s.recipe, opts, ws);
  if (s.kind === 'download' && isVersionedUrl(s.url))
    throw new KeeperError(
      'CATALOGUE_DOWNLOAD_VERSIONED',
      `${describe(f)} offers only ${s.url}, whose name holds a version: a recipe for it would never update`,
      { hint: 'find the project’s repository and add that URL instead' },
    );
  const target = s.kind === 'repository' ? s.repository : s.kind === 'download' ? s.url : '';
  const refuseArchived = {
    entry: describe(f),
    hint: `to follow it all the same: ${addTarget(target, opts.name)}`,
  };
  try {
    return await addFromUrl(target, { ...opts, refuseArchived }, ws, run);
  } catch (err) {
    const e = toKeeperError(err);
    // The user's own conflicts (name taken, ambiguous asset with its flag) are theirs to read as is.
    const theirs = [
      'APP_EXISTS',
      'ADD_ASSET_AMBIGUOUS',
      'ADD_NAME_INVALID',
      'INTERRUPTED',
      'CATALOGUE_ENTRY_ARCHIVED',
    ];
    if (theirs.includes(e.code)) throw err;
    throw new KeeperError('CATALOGUE_ENTRY_UNUSABLE', `${describe(f)} names ${target}: ${e.message}`, {
      hint: e.hint ?? 'the catalogue entry may be out of date; add the app by another URL',
      cause: err,
      details: { code: e.code },
    });
  }
}

async function fromRecipe(
  f: FoundEntry,
  recipe: Record<string, unknown>,
  opts: AddOptions,
  ws: Workspace,
): Promise<AddResult> {
  const strategy = recipe.strategy;
  const kind = (strategy as { strategy?: unknown } | undefined)?.strategy;
  // A remote index may not hand us executable files: script recipes are written by hand.
  if (typeof strategy !== 'object' || strategy === null || (kind !== 'forge' && kind !== 'direct'))
    throw new KeeperError(
      'CATALOGUE_ENTRY_UNUSABLE',
      `${describe(f)} has a recipe whose strategy is not forge or direct`,
    );
  const kindOf: AddResult['kind'] = kind;
  const zsync = recipe.zsync;
  const draft: RecipeDraft = {
    name: opts.name ?? f.entry.name,
    strategy: strategy as Record<string, unknown>,
    ...(typeof zsync === 'string' || typeof zsync === 'boolean' ? { zsync } : {}),
  };
  const comment = opts.comment ?? [];
  const text = recipeText(draft, comment);
  const base = { name: draft.name, kind: kindOf, recipe: draft, release: null, notes: [] };
  if (opts.dryRun) return { ...base, text, file: null };
  const written = await writeNewRecipe(ws, draft, comment);
  return { ...base, text, file: written.file };
}
