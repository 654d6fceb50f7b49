import { rm, rmdir, stat } from 'node:fs/promises';
import { hasInstall } from '../state/has-install.js';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import type { Workspace } from '../config/workspace.js';
import { describeError } from '../core/errors.js';
import { TEMP_PREFIX } from '../core/file-names.js';
import { cleanStaleTemps } from '../transfer/download/index.js';
import { DesktopClaims } from '../install/desktop-claims.js';
import { removeIntegration } from '../install/desktop-integration.js';
import { deleteManagedFile } from '../install/managed-delete.js';
import { PREVIOUS_DIR } from '../install/place.js';
import { managedStorageDirs } from './managed-dirs.js';
import { removeSymlink } from '../install/symlink.js';
import { restoreRetired } from '../install/retire.js';
import type { StateStore } from '../state/store.js';

/** What `remove` did for one app. */
export interface RemoveOutcome {
  name: string;
  /** `not_installed`: nothing was installed (never, or already removed); `incomplete`: see errors. */
  status: 'removed' | 'not_installed' | 'incomplete';
  removed: string[];
  /** Recorded paths that were already gone (reported, not errors). */
  missing: string[];
  /** Paths left alone because they are not ours. */
  skipped: string[];
  errors: string[];
  /** Another manager's desktop entry and icons `adopt` had retired, put back where they were. */
  restored: string[];
  /** Backups of retired files kept because a file is now at their original place. */
  retired_kept: string[];
  purged_recipe: string | null;
}

async function removeFile(path: string, out: RemoveOutcome, managed: readonly string[]): Promise<void> {
  const exists = await stat(path).then(
    () => true,
    () => false,
  );
  if (!exists) {
    out.missing.push(path);
    return;
  }
  try {
    if (await deleteManagedFile(path, managed)) out.removed.push(path);
    // State pointed outside every storage_dir: not a file we manage, so it stays.
    else out.skipped.push(path);
  } catch (err) {
    out.errors.push(`${path}: ${describeError(err)}`);
  }
}

/**
 * The hidden folder for kept versions is ours alone (we create it, nobody else uses the name), so
 * once it is empty it goes too; rmdir refuses a folder that still holds another app's version.
 */
async function removeEmptyPreviousDir(dir: string): Promise<void> {
  if (basename(dir) !== PREVIOUS_DIR) return;
  await rmdir(dir).catch(() => undefined);
}

/** True when state records something of the app on disk (a removed or never-installed app has nothing). */
/**
 * Undoes an install exactly as state recorded it: the AppImage, the kept previous version, desktop
 * entry, icons and symlink. The state entry then only marks the app removed, so `update` does not
 * bring it back until it is named; with `purge`, the recipe and the state entry go.
 */
export async function removeApp(
  name: string,
  ws: Workspace,
  store: StateStore,
  opts: { purge: boolean; now: string },
): Promise<RemoveOutcome> {
  const out: RemoveOutcome = {
    name,
    status: 'removed',
    removed: [],
    missing: [],
    skipped: [],
    errors: [],
    restored: [],
    retired_kept: [],
    purged_recipe: null,
  };
  const state = store.app(name);
  if (!hasInstall(state)) out.status = 'not_installed';
  const managed = managedStorageDirs(ws);
  if (state?.installed) await removeFile(state.installed.file, out, managed);
  if (state?.previous) {
    await removeFile(state.previous.file, out, managed);
    await removeEmptyPreviousDir(dirname(state.previous.file));
  }
  if (state?.symlink) {
    const r = await removeSymlink(state.symlink);
    if (r === 'removed') out.removed.push(state.symlink);
    else if (r === 'missing') out.missing.push(state.symlink);
    else out.skipped.push(state.symlink);
  }
  // Built from the other apps' records: an icon name one of them holds is not ours to delete.
  const claims = DesktopClaims.fromState(store.snapshot().apps);
  for (const integration of [state?.integration, state?.previous?.integration]) {
    if (!integration) continue;
    try {
      const r = await removeIntegration(integration, name, claims);
      out.removed.push(...r.removed.filter((p) => !out.removed.includes(p)));
      out.missing.push(...r.missing.filter((p) => !out.missing.includes(p) && !out.removed.includes(p)));
      out.skipped.push(...r.skipped);
    } catch (err) {
      out.errors.push(`desktop integration: ${describeError(err)}`);
    }
  }
  if (state?.retired?.length) {
    const r = await restoreRetired(state.retired);
    out.restored.push(...r.restored);
    // A file now at the original place is not replaced: its backup stays where it was kept.
    out.retired_kept.push(...r.kept);
    out.errors.push(...r.errors);
  }
  if (out.errors.length > 0) out.status = 'incomplete';
  else if (opts.purge) store.deleteApp(name);
  else if (state && out.status === 'removed') {
    store.updateApp(name, state.strategy, (s) => ({ strategy: s.strategy, removedAt: opts.now }));
  }
  if (opts.purge) {
    const entry = ws.apps.find((a) => a.name === name);
    if (entry) {
      // A folder holding only this recipe (and its scripts) goes as a whole; a folder that holds
      // another app's recipe too, or apps/ itself, loses only this file.
      const folder = dirname(entry.file);
      const shared = ws.apps.some((a) => a !== entry && isInside(a.file, folder));
      const target = folder !== ws.paths.appsDir && !shared ? folder : entry.file;
      await rm(target, { recursive: true, force: true });
      out.purged_recipe = target;
    }
  }
  return out;
}

/** State entries whose recipe is gone and that still have something installed. */
export function orphanNames(ws: Workspace, store: StateStore): string[] {
  const known = new Set(ws.apps.map((a) => a.name));
  return store.appNames().filter((n) => !known.has(n) && hasInstall(store.app(n)));
}

/**
 * Drops state entries of apps that have nothing installed and no recipe any more (a removed app
 * whose recipe was then deleted): the removal mark has nothing left to protect.
 */
export function forgetRecipelessRemoved(ws: Workspace, store: StateStore): void {
  const known = new Set(ws.apps.map((a) => a.name));
  for (const n of store.appNames()) if (!known.has(n) && !hasInstall(store.app(n))) store.deleteApp(n);
}

// Temp names of earlier versions, which carried no owner: a download, a zsync result, a staged rollback.
const LEGACY_TEMP = /^\.appimage-keeper-.+-(?:(?:zsync-)?[0-9a-f]{12}(?:\.part)?|rollback-\d+)$/;
const LEGACY_PREVIOUS_TEMP = /\.AppImage\.\d+\.tmp$/;

/**
 * Leftover temp files of interrupted runs in every storage dir we know of. Files a live process
 * is writing (another config dir may share a storage_dir) are left alone.
 */
export async function removeStrayTemps(ws: Workspace): Promise<string[]> {
  const removed: string[] = [];
  for (const dir of managedStorageDirs(ws)) {
    removed.push(...(await cleanStaleTemps(dir, TEMP_PREFIX, LEGACY_TEMP)));
    removed.push(...(await cleanStaleTemps(join(dir, PREVIOUS_DIR), TEMP_PREFIX, LEGACY_PREVIOUS_TEMP, dir)));
  }
  return removed;
}

function isInside(file: string, folder: string): boolean {
  const rel = relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
