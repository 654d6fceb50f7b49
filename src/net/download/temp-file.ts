import { randomBytes } from 'node:crypto';
import { open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** An open temp file. */
export interface TempFile {
  path: string;
  handle: FileHandle;
}

/** Creates a new, exclusive temp file `<prefix><random>.part` in `dir` (mode 0644, like the final file). */
export async function createTempFile(dir: string, prefix: string): Promise<TempFile> {
  for (let i = 0; ; i++) {
    const path = join(dir, `${prefix}${randomBytes(6).toString('hex')}.part`);
    try {
      return { path, handle: await open(path, 'wx+', 0o644) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i >= 4) throw err;
    }
  }
}

/**
 * Deletes leftovers of interrupted runs: entries of `dir` whose names start with `prefix`.
 * Returns the removed paths; a missing `dir` is not an error. Callers hold the run lock, so no
 * other run is writing these files.
 */
export async function cleanStaleTemps(dir: string, prefix: string): Promise<string[]> {
  if (!prefix) throw new Error('cleanStaleTemps needs a non-empty prefix');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dir, name);
    await rm(path, { force: true, recursive: true });
    removed.push(path);
  }
  return removed;
}
