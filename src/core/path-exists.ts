import { lstat, stat } from 'node:fs/promises';

/** Whether `path` names something, following symlinks (a dangling link does not count). */
export async function pathExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Whether `path` names a directory entry of any kind, a dangling symlink included (lstat). */
export async function entryExists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** Whether `path` is a regular file, following symlinks. */
export async function isRegularFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}
