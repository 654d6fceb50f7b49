/**
 * Takes one planned file into management: writes and validates its recipe, puts the file in
 * storage_dir (moved or copied) or leaves it where it is, and records it in state as installed,
 * with its signing key pinned and its desktop entry written as after an update. The AppImage is
 * never deleted or overwritten; when anything fails before state is written, the recipe written
 * here is removed again and the file is where it was.
 */
import { constants, copyFile, link, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { renderFileName } from '../../install/naming.js';
import { sha256File } from '../../appimage/verify.js';
import { effectiveAppSettings } from '../../config/settings.js';
import type { AppSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import { KeeperError } from '../../core/errors.js';
import { setManagedMode } from '../../core/file-modes.js';
import { fsyncDir } from '../../core/atomic-files.js';
import { appRun } from '../app-run.js';
import { placeAndIntegrate, prepareStorage } from '../place-and-integrate.js';
import type { Run } from '../run.js';
import { signatureStep } from '../signature-step.js';
import type { InstalledRecord } from '../../state/types.js';
import { adoptedIdentity } from '../adopted-identity.js';
import type { AdoptPlan } from './plan.js';
import { writeNewRecipe } from '../add/recipe-text.js';
import type { ForeignEntry } from '../../install/foreign-entries.js';
import { retireFiles, type RetiredFile } from '../../install/retire.js';

/** Where the adopted file goes. */
export type AdoptMode = 'move' | 'copy' | 'in-place';

/** What adopting one file did. */
export interface AdoptTaken {
  name: string;
  recipe: string;
  path: string;
  version: string;
  sha256: string;
  signing_key: string | null;
  desktop_entry: string | null;
  /** Another manager's entry and icons for the file, moved into our backup folder. */
  retired: RetiredFile[];
  warnings: string[];
}

/** Where file `name`'s taken-over entries are kept: `<state dir>/retired/<app>/`. */
export function retiredDir(stateDir: string, name: string): string {
  return join(stateDir, 'retired', name);
}

/** Where the file goes: storage_dir under the recipe's file name, or where it is (`in-place`). */
export function adoptTarget(settings: AppSettings, mode: AdoptMode, file: string, version: string): string {
  if (mode === 'in-place') return file;
  return join(settings.storage_dir, renderFileName(settings.naming_format, settings.name, version));
}

/**
 * Puts `from` at `to` without ever replacing `to` (a hard link or an exclusive copy fails when it
 * exists), then, for a move, unlinks `from`.
 */
async function placeFile(from: string, to: string, move: boolean): Promise<void> {
  const copy = (): Promise<void> => copyFile(from, to, constants.COPYFILE_EXCL);
  try {
    if (!move) await copy();
    else
      await link(from, to).catch(async (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EXDEV' && err.code !== 'EPERM') throw err;
        await copy();
      });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new KeeperError('ADOPT_TARGET_EXISTS', `${to} already exists; the file was left where it is`);
    throw err;
  }
  // A hard link or copy keeps the file's own mode (0700 under root's umask 077): storage's is fixed.
  await setManagedMode(to, 'appimage');
  if (move) await rm(from);
}

/** Adopts one planned file (under the lock; the caller saves state). */
export async function takeAdoption(
  plan: Extract<AdoptPlan, { ok: true }>,
  mode: AdoptMode,
  retire: readonly ForeignEntry[],
  ws: Workspace,
  run: Run,
): Promise<AdoptTaken> {
  const { ctx, store } = run;
  const recipe = await writeNewRecipe(ws, plan.recipe, [
    `adopted from ${plan.file}`,
    `source: ${plan.source}`,
  ]);
  let placed: string | undefined;
  try {
    const settings: AppSettings = effectiveAppSettings({
      global: ws.global,
      recipe: recipe.parsed.values,
      recipeFile: recipe.file,
      recipeDir: recipe.dir,
      env: ctx.env,
      secretsToken: ws.secrets.hubToken,
    });
    const name = settings.name;
    const app = appRun(run, settings, undefined);
    const signature = await signatureStep(app, plan.file, plan.version);
    const sha256 = await sha256File(plan.file);
    const size = (await stat(plan.file)).size;
    const linked = await placeAndIntegrate(app, {
      version: plan.version,
      keepForeign: false,
      announce: false,
      move: async (target) => {
        if (mode === 'in-place') return plan.file;
        await prepareStorage(settings.storage_dir);
        await placeFile(plan.file, target, mode === 'move');
        placed = target;
        await fsyncDir(settings.storage_dir);
        return target;
      },
    });
    const file = linked.file;
    const warnings = [...plan.notes, ...signature.warnings, ...linked.warnings];
    // Their entry goes once ours is written: the menu never lacks a working one.
    const { retired, errors } = await retireFiles(
      retire.flatMap((e) => [e.entry, ...e.icons]),
      ctx.paths.stateDir,
      retiredDir(ctx.paths.stateDir, name),
    );
    warnings.push(...errors.map((e) => `not retired: ${e}`));
    const now = ctx.now().toISOString();
    const installed: InstalledRecord = {
      version: plan.version,
      identity: adoptedIdentity(sha256),
      file,
      url: '',
      size,
      sha256,
      installedAt: now,
    };
    const pin = signature.state ? { ...signature.state, pinnedBy: 'adopt' as const } : undefined;
    store.updateApp(name, settings.strategy.strategy, (s) => ({
      ...s,
      strategy: settings.strategy.strategy,
      installed,
      integration: linked.integration,
      symlink: linked.symlink,
      signature: pin,
      lastUpdate: now,
      ...(retired.length ? { retired: [...(s.retired ?? []), ...retired] } : {}),
    }));
    return {
      name,
      recipe: recipe.file,
      path: file,
      version: plan.version,
      sha256,
      signing_key: pin?.fingerprint ?? null,
      desktop_entry: linked.integration?.desktopFile ?? null,
      retired,
      warnings,
    };
  } catch (err) {
    // Put the file back where it was when it had been moved, and drop the recipe written above.
    if (placed && mode === 'move') await rename(placed, plan.file).catch(() => undefined);
    if (placed && mode === 'copy') await rm(placed, { force: true });
    await recipe.undo();
    throw err;
  }
}
