import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFailure } from '../core/errors.js';
import { ensureDirBelow, openNewFile } from '../core/no-follow.js';

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
  // node:crypto is loaded when a file is written: `list` and `validate` import this module and write nothing.
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
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
