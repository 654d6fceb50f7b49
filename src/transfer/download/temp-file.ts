import { randomBytes } from 'node:crypto';
import { open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoSymlinkBelow } from '../../core/no-follow.js';
import { bootTag, isProcessAlive } from '../../core/process-owner.js';

/** An open temp file. */
export interface TempFile {
  path: string;
  handle: FileHandle;
}

// Temp names this process made. A file naming our own pid and boot that is not in here was left by
// an earlier process that had the same pid (pid reuse, common in containers): stale.
const madeHere = new Set<string>();

// `<pid>.<boot tag>.<random>.<kind>` right after the caller's prefix, or after a `~` inside it.
const OWNER_RE = /(?:^|~)(\d{1,10})\.([0-9a-f]{8})\.[0-9a-f]{6,32}\.[a-z]{1,16}$/;

/**
 * A fresh temp path `<dir>/<prefix><pid>.<boot>.<random>.<kind>` owned by this process; the owner
 * in the name is what lets `cleanStaleTemps` leave a live process's files alone.
 */
export async function ownedTempPath(dir: string, prefix: string, kind: string): Promise<string> {
  const name = `${prefix}${process.pid}.${await bootTag()}.${randomBytes(6).toString('hex')}.${kind}`;
  madeHere.add(name);
  return join(dir, name);
}

/** Creates a new, exclusive temp file (see ownedTempPath) in `dir` (mode 0644, like the final file). */
export async function createTempFile(dir: string, prefix: string, kind = 'part'): Promise<TempFile> {
  for (let i = 0; ; i++) {
    const path = await ownedTempPath(dir, prefix, kind);
    try {
      return { path, handle: await open(path, 'wx+', 0o644) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || i >= 4) throw err;
    }
  }
}

/**
 * Whether the temp file `name` (which starts with `prefix`) belongs to no live process: its owner
 * ran in another boot, or its pid is gone, or it is our pid but a file we never made. A name
 * without a readable owner is not ours to judge: false.
 */
export async function isStaleTemp(name: string, prefix: string): Promise<boolean> {
  if (!name.startsWith(prefix)) return false;
  const m = OWNER_RE.exec(name.slice(prefix.length));
  if (!m) return false;
  const pid = Number(m[1]);
  if (m[2] !== (await bootTag())) return true;
  if (pid === process.pid) return !madeHere.has(name);
  return !isProcessAlive(pid);
}

/**
 * Deletes leftovers of interrupted runs: entries of `dir` starting with `prefix` whose owner is
 * gone (see isStaleTemp), plus names matching `legacy` (temp names of earlier versions, which
 * carried no owner). Files of a live process, another run sharing this storage_dir included, stay.
 * Returns the removed paths; a missing `dir` is not an error. With `root` (the managed folder `dir`
 * lies in), a symlink between `root` and `dir` is refused (SYMLINK_REFUSED) instead of cleaned through.
 */
export async function cleanStaleTemps(
  dir: string,
  prefix: string,
  legacy?: RegExp,
  root?: string,
): Promise<string[]> {
  if (!prefix) throw new Error('cleanStaleTemps needs a non-empty prefix');
  if (root !== undefined) await assertNoSymlinkBelow(root, dir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!(await isStaleTemp(name, prefix)) && !legacy?.test(name)) continue;
    const path = join(dir, name);
    await rm(path, { force: true, recursive: true });
    removed.push(path);
  }
  return removed;
}
