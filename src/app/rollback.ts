import { rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sha256File } from '../appimage/verify.js';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { ensureDirBelow } from '../core/no-follow.js';
import { setManagedMode } from '../core/file-modes.js';
import { deleteManagedFile } from '../install/managed-delete.js';
import { tempPrefix } from '../install/naming.js';
import { ownedTempPath } from '../transfer/download/index.js';
import { linkOrCopy, previousPath } from '../install/place.js';
import { writeOwnerRecord, type Profile } from '../install/owner-record.js';
import { fsyncDir } from '../core/atomic-files.js';
import type { StateStore } from '../state/store.js';
import { pathExists } from '../core/path-exists.js';
import type { InstalledRecord } from '../state/types.js';
import { appRun } from './app-run.js';
import { placeAndIntegrate } from './place-and-integrate.js';
import type { Run } from './run.js';

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

/** A second name for `from` at `to`, replacing a leftover there. */
async function stage(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  await linkOrCopy(from, to);
}

/**
 * Restores `prev` at `target` and keeps the replaced version at `keepAt`: both files are staged
 * under temp names first, then renamed into place, so the installed path always holds a complete
 * AppImage. Only files inside this app's storage_dir are ever deleted, whatever state says.
 */
async function swap(s: {
  storageDir: string;
  name: string;
  target: string;
  keepAt: string;
  current: InstalledRecord;
  currentPresent: boolean;
  prev: InstalledRecord;
  /** The profile recorded as the restored file's owner. */
  profile: Profile;
}): Promise<string> {
  const { storageDir, target, keepAt, current, currentPresent, prev } = s;
  await ensureDirBelow(storageDir, dirname(keepAt));
  const stagedCurrent = await ownedTempPath(dirname(keepAt), tempPrefix(s.name), 'rollback');
  const stagedRestore = await ownedTempPath(storageDir, tempPrefix(s.name), 'restore');
  const managed = [storageDir];
  try {
    if (currentPresent) {
      await stage(current.file, stagedCurrent);
      await setManagedMode(stagedCurrent, 'appimage');
    }
    await stage(prev.file, stagedRestore);
    await setManagedMode(stagedRestore, 'appimage');
    await rename(stagedRestore, target);
    await fsyncDir(storageDir);
    await writeOwnerRecord(target, s.name, prev.sha256, s.profile);
    if (currentPresent) await rename(stagedCurrent, keepAt);
    else await deleteManagedFile(prev.file, managed);
    if (prev.file !== keepAt && prev.file !== target) await deleteManagedFile(prev.file, managed);
    if (currentPresent && current.file !== target && current.file !== keepAt)
      await deleteManagedFile(current.file, managed);
  } finally {
    await rm(stagedRestore, { force: true });
    await rm(stagedCurrent, { force: true });
  }
  return target;
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
export async function rollbackApp(run: Run, settings: AppSettings): Promise<RollbackResult> {
  const { store } = run;
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
  const storageDir = settings.storage_dir;
  const keepAt = previousPath(storageDir, name);
  const currentPresent = await pathExists(current.file);
  const missing = currentPresent
    ? []
    : [`the installed file ${current.file} was missing; there is no version to roll forward to`];
  // With a versioned naming_format the restore name may hold someone else's file: the step keeps it.
  const placed = await placeAndIntegrate(appRun(run, settings, state), {
    version: prev.version,
    keepForeign: true,
    announce: false,
    move: (target) =>
      swap({
        storageDir,
        name,
        target,
        keepAt,
        current,
        currentPresent,
        prev,
        profile: run.ctx.paths,
      }),
  });
  const { file: target, symlink, integration } = placed;

  const { integration: _unused, ...restored } = prev;
  const at = run.ctx.now().toISOString();
  store.updateApp(name, state.strategy, (s) => ({
    ...s,
    installed: { ...restored, file: target },
    previous: currentPresent ? { ...current, file: keepAt, integration: s.integration } : undefined,
    integration,
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
    desktop_entry: integration?.desktopFile ?? null,
    held: true,
    warnings: [...missing, ...placed.warnings],
  };
}

/** Clears an app's hold; returns whether it was held. */
export function unholdApp(store: StateStore, name: string): boolean {
  const state = store.app(name);
  if (!state?.hold) return false;
  store.updateApp(name, state.strategy, (s) => ({ ...s, hold: false }));
  return true;
}
