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
import { looksLikeAppImageName, managerOf } from './file-names.js';
import { inspectAppImage } from './inspect.js';
import { planAdoption, type AdoptPlan } from './plan.js';
import type { RecipeDraft } from '../add/recipe-text.js';
import { takeAdoption, type AdoptMode, type AdoptTaken } from './take.js';

/** One file's row of the plan or result. */
export interface AdoptRow {
  file: string;
  /** `appimagelauncher` or `gearlever` when that manager named the file. */
  manager: string | null;
  status: 'planned' | 'adopted' | 'not_adoptable' | 'failed';
  name: string | null;
  recipe: RecipeDraft | null;
  source: string | null;
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
    recipe: null,
    source: null,
    version: null,
    notes: [],
    error: null,
    result: null,
  };
  if (!plan) return { ...base, error: errorOf(err) };
  if (!plan.ok) return { ...base, error: errorOf(plan.error) };
  return {
    ...base,
    status: 'planned',
    name: plan.recipe.name,
    recipe: plan.recipe,
    source: plan.source,
    version: plan.version,
    notes: plan.notes,
  };
}

async function planFile(
  file: string,
  opts: AdoptOptions,
  run: Run,
): Promise<{ row: AdoptRow; plan?: AdoptPlan }> {
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
    });
    return { row: rowOf(file, plan), plan };
  } catch (err) {
    return { row: rowOf(file, undefined, err) };
  }
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
  for (const file of files) {
    const { row, plan } = await planFile(file, opts, run);
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
    try {
      const result = await takeAdoption(plan, opts.mode, ws, run);
      await run.store.save();
      rows.push({ ...row, status: 'adopted', result });
    } catch (err) {
      rows.push({ ...row, status: 'failed', error: errorOf(err) });
    }
  }
  return rows;
}
