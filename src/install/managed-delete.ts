import { rm } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
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
 * hostile state file cannot make us delete a file we did not create. Its owner record goes with it.
 * Returns whether it deleted.
 */
export async function deleteManagedFile(path: string, managedDirs: readonly string[]): Promise<boolean> {
  if (!isAbsolute(path) || !managedDirs.some((d) => isInside(path, d))) return false;
  await rm(path, { force: true });
  await removeOwnerRecord(path);
  return true;
}
