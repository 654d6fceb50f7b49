import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rmdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFailure } from '../core/errors.js';

/** Writes a file atomically: a hidden temp file in the same directory, fsync, then rename over. */
export async function writeFileAtomic(path: string, data: Buffer | string, mode = 0o644): Promise<void> {
  try {
    await replaceFile(path, data, mode);
  } catch (err) {
    throw writeFailure(err, path);
  }
}

async function replaceFile(path: string, data: Buffer | string, mode: number): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  // Hidden and without the .desktop suffix, so menus never pick up a half-written entry.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
    await fh.chmod(mode);
  } catch (err) {
    await fh.close();
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

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
