import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFailure } from '../core/errors.js';

/** Fsyncs a directory so a rename inside it survives a crash. Best effort on filesystems that refuse. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/**
 * Writes a file atomically: temp file in the same directory, fsync, rename, fsync the directory.
 * Out of space, the error names `path` and its folder, and the file keeps its old content.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  try {
    await replaceFile(path, data, mode);
  } catch (err) {
    throw writeFailure(err, path);
  }
}

async function replaceFile(path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await fsyncDir(dir);
}
