import { rm } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { assertNoSymlinkBelow } from '../core/no-follow.js';
import { removeOwnerRecord } from './owner-record.js';

/** Whether `path` lies strictly inside `dir` (after resolving `.` and `..`). */
export function isInside(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * The one way an installed AppImage (or a kept previous version) is deleted: only when it lies
 * inside one of `managedDirs` (the storage dirs of the configuration, their previous-version
 * folders included). A path from state that points anywhere else is refused, so a damaged or
 * hostile state file cannot make us delete a file we did not create. A symlinked folder between
 * the managed dir and the file (a planted `.appimage-keeper-previous`) is refused, never followed. Its owner record goes
 * with it.
 * Returns whether it deleted.
 */
export async function deleteManagedFile(path: string, managedDirs: readonly string[]): Promise<boolean> {
  const dir = isAbsolute(path) ? managedDirs.find((d) => isInside(path, d)) : undefined;
  if (dir === undefined) return false;
  await assertNoSymlinkBelow(resolve(dir), dirname(resolve(path)));
  await rm(path, { force: true });
  await removeOwnerRecord(path);
  return true;
}
