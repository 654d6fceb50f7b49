/**
 * Folders we manage (storage_dir, the state folder, desktop and icon folders, symlink_dir) may
 * themselves be links (the user's choice), but nothing we create or enter below them may be: a link
 * planted there (`.appimage-keeper-previous -> /elsewhere`) would make us write or delete through it.
 */
import { chmod, constants, lstat, mkdir, open, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { KeeperError } from './errors.js';
import { managedMode } from './file-modes.js';
import { shellQuote } from './shell-quote.js';

/** The error for a symlink found where a managed folder's own entry should be. */
export function symlinkRefused(path: string): KeeperError {
  return new KeeperError(
    'SYMLINK_REFUSED',
    `${path} is a symbolic link; appimage-keeper never writes or deletes through a link inside a folder it manages`,
    { hint: `remove the link (rm ${shellQuote(path)}) and run again; nothing was written through it` },
  );
}

// The entries from just below `root` down to `path`, outermost first; none when path is not below root.
function entriesBelow(root: string, path: string): string[] {
  const rel = relative(root, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [];
  const out: string[] = [];
  let cur = root;
  for (const part of rel.split(sep)) {
    cur = join(cur, part);
    out.push(cur);
  }
  return out;
}

/**
 * Throws SYMLINK_REFUSED when an entry between `root` (exclusive) and `path` (inclusive) is a
 * symlink. Entries that do not exist end the walk: there is nothing to follow.
 */
export async function assertNoSymlinkBelow(root: string, path: string): Promise<void> {
  for (const entry of entriesBelow(root, path)) {
    const st = await lstat(entry).catch(() => undefined);
    if (!st) return;
    if (st.isSymbolicLink()) throw symlinkRefused(entry);
  }
}

/**
 * Creates `dir` and its parents up to `root` as real directories (`root` may be a link and is
 * created with its parents). A symlink at any level below `root` is refused, never followed.
 */
export async function ensureDirBelow(root: string, dir: string, mode = managedMode('folder')): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const entry of entriesBelow(root, dir)) {
    const made = await mkdir(entry, { mode }).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
        return false;
      },
    );
    const st = await lstat(entry);
    if (st.isSymbolicLink()) throw symlinkRefused(entry);
    // The umask narrows mkdir's mode: a new folder gets it exactly.
    if (made) await chmod(entry, mode);
  }
}

const NEW_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Opens a file that must not exist yet, for writing: never an existing file or a link's target. */
export function openNewFile(path: string, mode: number): Promise<FileHandle> {
  return open(path, NEW_FILE_FLAGS, mode);
}
