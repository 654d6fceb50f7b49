/**
 * `adopt`: plan every file (inspect, map to a recipe), then, when asked to act, take each planned
 * file into management. One file's failure never stops the others and leaves that file as it was.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Workspace } from '../../config/workspace.js';
import { KeeperError, toKeeperError } from '../../core/errors.js';
import type { Run } from '../run.js';
import { canonicalRepository, isHubOrLab, latestRelease } from '../add/forge-lookup.js';
import { draftFromUrl } from '../add/add.js';
import { effectiveAppSettings } from '../../config/settings.js';
import { foreignEntriesFor, type ForeignEntry } from '../../install/foreign-entries.js';
import { managedFiles } from './managed-files.js';
import { looksLikeAppImageName, managerOf } from './file-names.js';
import { inspectAppImage } from './inspect.js';
import { planAdoption, type AdoptPlan } from './plan.js';
import { catalogueFinder, type CatalogueProposal, type CatalogueSuggestion } from './catalogue-finder.js';
import { DEFAULT_FINDERS, type SourceFinder } from './source-finders.js';
import { loadCatalogues } from '../catalogues.js';
import { entrySource } from '../add/catalogue-source.js';
import type { LoadedCatalogue } from '../../sources/catalogues/cache.js';
import type { RecipeDraft } from '../add/recipe-text.js';
import { adoptTarget, takeAdoption, type AdoptMode, type AdoptTaken } from './take.js';

/** One file's row of the plan or result. */
export interface AdoptRow {
  file: string;
  /** `appimagelauncher` or `gearlever` when that manager named the file. */
  manager: string | null;
  /** `managed`: the file is already the installed file of app `managed_as`. */
  status: 'planned' | 'adopted' | 'not_adoptable' | 'failed' | 'managed';
  name: string | null;
  /** What happens to the file (`move`, `copy`, `in-place`) and where it ends up. */
  action: AdoptMode | null;
  destination: string | null;
  managed_as: string | null;
  /** Another manager's desktop entries (and icons) for the file, retired when it is adopted. */
  retire: { manager: string; entry: string; icons: string[] }[];
  recipe: RecipeDraft | null;
  source: string | null;
  /** The catalogue entry that named the source (taken only once confirmed). */
  match: CatalogueProposal | null;
  /** Weak catalogue matches: never taken, each with the command that takes it. */
  suggestions: CatalogueSuggestion[];
  version: string | null;
  notes: string[];
  error: { code: string; message: string; hint: string | null } | null;
  result: AdoptTaken | null;
}

/** What to do with the planned files. */
export interface AdoptOptions {
  mode: AdoptMode;
  /** false: plan only (`--dry-run`, or `--scan` without `--yes`). */
  act: boolean;
  name?: string | undefined;
  /** `--url`: the source, read as `add URL` reads it. */
  url?: string | undefined;
  /** `--yes`: a catalogue match is taken without asking. */
  yes?: boolean | undefined;
  /** Asks whether to take a catalogue match (a terminal); undefined: no one to ask, not taken. */
  confirm?: ((row: AdoptRow) => Promise<boolean>) | undefined;
}

const MAX_SCAN_ENTRIES = 10_000;

/** The AppImages directly inside `dir` (by name, regular files only), sorted. */
export async function scanForAppImages(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    throw new KeeperError('ADOPT_SCAN_UNREADABLE', `cannot read ${dir}: ${(err as Error).message}`);
  });
  return entries
    .slice(0, MAX_SCAN_ENTRIES)
    .filter((e) => e.isFile() && looksLikeAppImageName(e.name))
    .map((e) => join(resolve(dir), e.name))
    .sort();
}

function errorOf(err: unknown): AdoptRow['error'] {
  const e = toKeeperError(err);
  return { code: e.code, message: e.message, hint: e.hint ?? null };
}

function rowOf(file: string, plan: AdoptPlan | undefined, err?: unknown): AdoptRow {
  const base: AdoptRow = {
    file,
    manager: managerOf(basename(file)) ?? null,
    status: 'not_adoptable',
    name: null,
    action: null,
    destination: null,
    managed_as: null,
    retire: [],
    recipe: null,
    source: null,
    match: null,
    suggestions: [],
    version: null,
    notes: [],
    error: null,
    result: null,
  };
  if (!plan) return { ...base, error: errorOf(err) };
  if (!plan.ok) return { ...base, error: errorOf(plan.error), suggestions: plan.suggestions };
  return {
    ...base,
    status: 'planned',
    name: plan.recipe.name,
    recipe: plan.recipe,
    source: plan.source,
    match: plan.match ?? null,
    suggestions: plan.suggestions,
    version: plan.version,
    notes: plan.notes,
  };
}

// Where the planned file would end up, with the settings its recipe would get.
function destinationOf(
  plan: Extract<AdoptPlan, { ok: true }>,
  mode: AdoptMode,
  ws: Workspace,
  run: Run,
): string {
  const settings = effectiveAppSettings({
    global: ws.global,
    recipe: { name: plan.recipe.name, strategy: plan.recipe.strategy },
    recipeFile: ws.paths.appsDir,
    recipeDir: ws.paths.appsDir,
    env: run.ctx.env,
    secretsToken: ws.secrets.hubToken,
  });
  return adoptTarget(settings, mode, plan.file, plan.version);
}

function retireRows(entries: readonly ForeignEntry[]): AdoptRow['retire'] {
  return entries.map((e) => ({ manager: e.manager, entry: e.entry, icons: e.icons }));
}

async function planFile(
  file: string,
  opts: AdoptOptions,
  run: Run,
  finders: readonly SourceFinder[],
): Promise<{ row: AdoptRow; plan?: AdoptPlan; retire: ForeignEntry[] }> {
  try {
    const st = await stat(file);
    if (!st.isFile()) throw new KeeperError('ADOPT_NOT_A_FILE', `${file} is not a regular file`);
    const insp = await inspectAppImage(await realpath(file));
    const plan = await planAdoption(insp, {
      name: opts.name,
      nodeArch: run.ctx.arch,
      lookupRelease: (repo) => latestRelease(run, repo),
      isKnownForge: (url) => isHubOrLab(run, url),
      repositoryOf: (url) => canonicalRepository(run, url),
      url: opts.url,
      fromUrl: async (url, name, refuseArchived) => {
        const d = await draftFromUrl(url, { name, refuseArchived }, run);
        return {
          strategy: d.recipe.strategy,
          zsync: d.recipe.zsync,
          selects: d.recipe.selects,
          source: `--url ${url}`,
          notes: d.notes,
        };
      },
      finders,
    });
    const retire = plan.ok ? await foreignEntriesFor(plan.file, run.ctx.paths) : [];
    const row = rowOf(file, plan);
    if (plan.ok) {
      row.action = opts.mode;
      row.destination = destinationOf(plan, opts.mode, run.ws, run);
      row.retire = retireRows(retire);
    }
    return { row, plan, retire };
  } catch (err) {
    return { row: rowOf(file, undefined, err), retire: [] };
  }
}

function managedRow(file: string, app: string): AdoptRow {
  return { ...rowOf(file, undefined), status: 'managed', name: app, managed_as: app, error: null };
}

/** Plans (and with `act`, adopts) each file in turn; returns one row per file. */
export async function adoptFiles(
  files: readonly string[],
  opts: AdoptOptions,
  ws: Workspace,
  run: Run,
): Promise<AdoptRow[]> {
  const rows: AdoptRow[] = [];
  const names = new Set(ws.apps.map((a) => a.name.toLowerCase()));
  const managed = await managedFiles(run.store);
  // Read once for all the files, and only when one of them needs them.
  let catalogues: Promise<LoadedCatalogue[]> | undefined;
  const finders = [
    ...DEFAULT_FINDERS,
    catalogueFinder({
      catalogues: () => (catalogues ??= loadCatalogues(run.ctx, ws.global, { signal: run.signal })),
      entrySource: (found) => entrySource(found, run),
    }),
  ];
  for (const file of files) {
    const owner = managed.get(await realpath(file).catch(() => file));
    if (owner !== undefined) {
      rows.push(managedRow(file, owner));
      continue;
    }
    const { row, plan, retire } = await planFile(file, opts, run, finders);
    if (plan?.ok && names.has(plan.recipe.name.toLowerCase())) {
      rows.push({
        ...row,
        status: 'not_adoptable',
        error: errorOf(
          new KeeperError(
            'APP_EXISTS',
            `an app named ${plan.recipe.name} already has a recipe or comes earlier in this adoption`,
            {
              hint: 'pass --name NAME to adopt the file under another name',
            },
          ),
        ),
      });
      continue;
    }
    if (plan?.ok) names.add(plan.recipe.name.toLowerCase());
    if (!opts.act || !plan?.ok) {
      rows.push(row);
      continue;
    }
    if (plan.confirm && opts.yes !== true && !(opts.confirm && (await opts.confirm(row)))) {
      rows.push({
        ...row,
        notes: [...row.notes, 'not taken: a catalogue match is taken with --yes (or a yes on a terminal)'],
      });
      continue;
    }
    try {
      const result = await takeAdoption(plan, opts.mode, retire, ws, run);
      await run.store.save();
      rows.push({ ...row, status: 'adopted', result });
    } catch (err) {
      rows.push({ ...row, status: 'failed', error: errorOf(err) });
    }
  }
  return rows;
}
