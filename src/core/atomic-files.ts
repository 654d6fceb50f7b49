/**
 * Temp files and atomic writes, in one place: the owned temp files downloads and delta updates
 * write into (and the cleanup of those a killed run left), and the one atomic write of the files
 * we manage (temp file, fsync, rename over, fsync the folder).
 */
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFailure } from './errors.js';
import { assertNoSymlinkBelow, ensureDirBelow, openNewFile } from './no-follow.js';
import { bootTag, isProcessAlive } from './process-owner.js';

// node:crypto is loaded when a file is written: `list` and `validate` import this module and write nothing.
function randomHex(bytes: number): string {
  return process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');
}

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

// `.<file>.<pid>.<8 hex>.tmp`, the temp name writeFileAtomic gives a file before its rename.
const ATOMIC_TEMP_RE = /^\..+\.(\d{1,10})\.[0-9a-f]{8}\.tmp$/;

/** The pid in the name of a `writeFileAtomic` temp file, or undefined for any other name. */
export function atomicTempPid(name: string): number | undefined {
  const m = ATOMIC_TEMP_RE.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Where and how `writeFileAtomic` writes. */
export interface AtomicWriteOptions {
  /**
   * The managed folder the file lives in (or below): folders between it and the file are created
   * as real directories, and a symlink among them is refused (SYMLINK_REFUSED), never followed.
   */
  root: string;
  /** Permission bits of the file (default 0644), set exactly whatever the umask. */
  mode?: number;
}

/**
 * The one atomic write of the files we manage (state, intents, desktop entries, icons, units): a
 * hidden temp file in the same directory created with O_EXCL|O_NOFOLLOW, fsync, rename over the
 * target (which replaces a link there instead of writing through it), fsync the directory.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions,
): Promise<void> {
  try {
    await replaceFile(path, data, opts);
  } catch (err) {
    // Out of space, the error names the file and its folder; the file keeps its old content.
    throw writeFailure(err, path);
  }
}

async function replaceFile(path: string, data: string | Uint8Array, opts: AtomicWriteOptions): Promise<void> {
  const mode = opts.mode ?? 0o644;
  const dir = dirname(path);
  await ensureDirBelow(opts.root, dir);
  // Hidden and with its own suffix, so menus and loaders never pick up a half-written file.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomHex(4)}.tmp`);
  // atomicTempPid reads this name back.
  const handle = await openNewFile(tmp, mode);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
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
  const name = `${prefix}${process.pid}.${await bootTag()}.${randomHex(6)}.${kind}`;
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
