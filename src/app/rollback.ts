import { constants, copyFile, link, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256File } from '../appimage/verify.js';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { ensureDirBelow } from '../core/no-follow.js';
import { integrateStep, type IntegrateTarget } from './integrate-step.js';
import { deleteManagedFile } from '../install/managed-delete.js';
import { renderFileName, tempPrefix } from '../install/naming.js';
import { ownedTempPath } from '../transfer/download/index.js';
import { keepForeignFile, previousPath } from '../install/place.js';
import { writeOwnerRecord, type Profile } from '../install/owner-record.js';
import { placeSymlink } from '../install/symlink.js';
import { fsyncDir } from '../state/atomic-write.js';
import type { StateStore } from '../state/store.js';
import { pathExists } from '../core/path-exists.js';

/** What `rollback` did for one app. */
export interface RollbackResult {
  name: string;
  from_version: string;
  to_version: string;
  /** The restored file, now the installed one. */
  path: string;
  /** Where the replaced version is kept (so a second rollback returns to it); null when it was gone. */
  previous_path: string | null;
  desktop_entry: string | null;
  held: true;
  warnings: string[];
}

/** A second name for `from` at `to` (hard link, or a copy across file systems). */
async function stage(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  await link(from, to).catch(() => copyFile(from, to, constants.COPYFILE_EXCL));
}

function nothing(name: string, message: string, hint: string): KeeperError {
  return new KeeperError('ROLLBACK_UNAVAILABLE', `${name}: ${message}`, { hint });
}

/**
 * Swaps an app's installed version with the kept previous one. Both files are first staged under
 * temp names, then renamed into place, so at every moment the installed path holds a complete
 * AppImage (a running copy keeps its inode). The replaced version becomes the new "previous", the
 * desktop entry and icon are rebuilt from the restored file, and the app is held so `update`
 * leaves it alone until `update --force` or `unhold`. Must run under the lock; the caller saves.
 */
export async function rollbackApp(
  settings: AppSettings,
  store: StateStore,
  dirs: Pick<IntegrateTarget, 'dataHome' | 'dataDirs' | 'claims'>,
  now: Date,
  env: NodeJS.ProcessEnv,
  profile: Profile,
): Promise<RollbackResult> {
  const name = settings.name;
  const state = store.app(name);
  const current = state?.installed;
  if (!state || !current) {
    throw nothing(
      name,
      'is not installed, so there is nothing to roll back',
      `install it with: appimage-keeper update ${name}`,
    );
  }
  const prev = state.previous;
  if (!prev) {
    throw nothing(
      name,
      `no previous version is kept (installed: ${current.version})`,
      settings.keep_previous
        ? 'the version replaced by the next update is kept; there has been no update since the first install'
        : `keep_previous is false for ${name}; set it to true to keep the replaced version on the next update`,
    );
  }
  if (!(await pathExists(prev.file))) {
    throw new KeeperError(
      'ROLLBACK_PREVIOUS_MISSING',
      `${name}: the kept previous version ${prev.file} is gone`,
      {
        hint: `nothing was changed; \`appimage-keeper update ${name} --force\` reinstalls the latest version`,
      },
    );
  }
  if ((await sha256File(prev.file)) !== prev.sha256) {
    throw new KeeperError(
      'ROLLBACK_PREVIOUS_CHANGED',
      `${name}: ${prev.file} no longer matches the recorded SHA-256 of version ${prev.version}`,
      { hint: 'it was modified after it was kept; nothing was changed' },
    );
  }
  const warnings: string[] = [];
  const storageDir = settings.storage_dir;
  const target = join(storageDir, renderFileName(settings.naming_format, name, prev.version));
  const keepAt = previousPath(storageDir, name);
  const currentPresent = await pathExists(current.file);
  if (!currentPresent)
    warnings.push(`the installed file ${current.file} was missing; there is no version to roll forward to`);

  // With a versioned naming_format the restore name may hold someone else's file: keep it.
  const foreignKept = await keepForeignFile(target, current, now, profile);
  if (foreignKept) warnings.push(`${target} was not installed by appimage-keeper; kept it as ${foreignKept}`);

  await ensureDirBelow(storageDir, dirname(keepAt));
  const stagedCurrent = await ownedTempPath(dirname(keepAt), tempPrefix(name), 'rollback');
  const stagedRestore = await ownedTempPath(storageDir, tempPrefix(name), 'restore');
  // Only files inside this app's storage_dir are ever deleted, whatever state says.
  const managed = [storageDir];
  try {
    if (currentPresent) await stage(current.file, stagedCurrent);
    await stage(prev.file, stagedRestore);
    await rename(stagedRestore, target);
    await fsyncDir(storageDir);
    await writeOwnerRecord(target, name, prev.sha256, profile);
    if (currentPresent) await rename(stagedCurrent, keepAt);
    else await deleteManagedFile(prev.file, managed);
    if (prev.file !== keepAt && prev.file !== target) await deleteManagedFile(prev.file, managed);
    if (currentPresent && current.file !== target && current.file !== keepAt)
      await deleteManagedFile(current.file, managed);
  } finally {
    await rm(stagedRestore, { force: true });
    await rm(stagedCurrent, { force: true });
  }

  let symlink = state.symlink;
  if (settings.create_symlinks || symlink) {
    try {
      symlink = await placeSymlink({
        dir: settings.symlink_dir,
        name,
        target,
        storageDir,
        ours: state.symlink,
      });
    } catch (err) {
      warnings.push(err instanceof Error ? err.message : String(err));
    }
  }
  const integ = await integrateStep(settings, {
    appImagePath: target,
    symlink,
    previous: state.integration,
    ...dirs,
    env,
  });
  warnings.push(...integ.warnings);

  const { integration: _unused, ...restored } = prev;
  const at = now.toISOString();
  store.updateApp(name, state.strategy, (s) => ({
    ...s,
    installed: { ...restored, file: target },
    previous: currentPresent ? { ...current, file: keepAt, integration: s.integration } : undefined,
    integration: integ.record,
    symlink,
    hold: true,
    lastUpdate: at,
  }));
  return {
    name,
    from_version: current.version,
    to_version: prev.version,
    path: target,
    previous_path: currentPresent ? keepAt : null,
    desktop_entry: integ.record?.desktopFile ?? null,
    held: true,
    warnings,
  };
}

/** Clears an app's hold; returns whether it was held. */
export function unholdApp(store: StateStore, name: string): boolean {
  const state = store.app(name);
  if (!state?.hold) return false;
  store.updateApp(name, state.strategy, (s) => ({ ...s, hold: false }));
  return true;
}
