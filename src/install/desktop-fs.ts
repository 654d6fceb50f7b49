import { readFile, rmdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** File contents, or undefined when the file does not exist. */
export async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Removes a file; false when it was already gone. */
export async function removeIfExists(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Removes `dir` and then its parents while they are empty, climbing at most `levels` directories. */
export async function pruneEmptyDirs(dir: string, levels: number): Promise<void> {
  let cur = dir;
  for (let i = 0; i < levels; i++) {
    try {
      await rmdir(cur);
    } catch {
      return; // not empty, gone, or not ours to remove: stop climbing
    }
    cur = dirname(cur);
  }
}
