/**
 * The executable a self-update replaced, kept beside it as `<exe>.previous`, and `--rollback`,
 * which swaps the two. Every step is a hard link (or an exclusive copy) to a fresh temp name and a
 * rename: the executable's path always holds a complete file, and a symlink planted at
 * `<exe>.previous` is replaced, never written through.
 */
import { constants, copyFile, link, lstat, realpath, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KeeperError } from '../../core/errors.js';
import { ownedTempPath } from '../../transfer/download/index.js';
import { fsyncDir } from '../../core/atomic-files.js';
import { requireWritableDir, SELF_TEMP_PREFIX } from './self-files.js';

const PREVIOUS_SUFFIX = '.previous';

/** Where the executable at (real path) `target` keeps its predecessor. */
export function previousPath(target: string): string {
  return `${target}${PREVIOUS_SUFFIX}`;
}

/** Makes `<target>.previous` the file now at `target` (atomically); returns its path. */
export async function keepPrevious(target: string): Promise<string> {
  const prev = previousPath(target);
  const tmp = await snapshot(target);
  try {
    await rename(tmp, prev);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return prev;
}

/**
 * Puts `<exe>.previous` back at the executable's (real) path, and the executable it replaces
 * becomes `.previous`, so a second rollback undoes the first. Run from `<exe>.previous` itself
 * (the way back when the new executable does not start at all), it restores into `<exe>`.
 * SELF_UPDATE_NO_PREVIOUS when there is no regular file to restore.
 */
export async function rollbackExecutable(executable: string): Promise<{ path: string; previous: string }> {
  const real = await realpath(executable);
  const target = real.endsWith(PREVIOUS_SUFFIX) ? real.slice(0, -PREVIOUS_SUFFIX.length) : real;
  const prev = previousPath(target);
  let isFile: boolean;
  try {
    isFile = (await lstat(prev)).isFile();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    throw new KeeperError('SELF_UPDATE_NO_PREVIOUS', `there is no ${prev} to roll back to`, {
      hint: 'a previous executable is kept only by a self-update of this version or later',
    });
  }
  if (!isFile) {
    throw new KeeperError(
      'SELF_UPDATE_NO_PREVIOUS',
      `${prev} is not a regular file (a symlink or folder there is never followed); not rolling back`,
      { hint: 'remove it, or download the executable you want by hand' },
    );
  }
  const dir = dirname(target);
  await requireWritableDir(dir, target);
  const current = await snapshot(target);
  try {
    await rename(prev, target);
  } catch (err) {
    await rm(current, { force: true });
    throw err;
  }
  await rename(current, prev);
  await fsyncDir(dir);
  return { path: target, previous: prev };
}

/**
 * A second name for `file` in its folder: a hard link (no 85 MiB copy), else an exclusive copy
 * where the filesystem or `fs.protected_hardlinks` refuses links. The temp name is owned, so an
 * interrupted run's leftover is cleaned like a download's.
 */
async function snapshot(file: string): Promise<string> {
  const tmp = await ownedTempPath(dirname(file), SELF_TEMP_PREFIX, 'previous');
  try {
    await link(file, tmp);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EXDEV' && code !== 'ENOTSUP' && code !== 'EMLINK') throw err;
    try {
      // COPYFILE_EXCL creates with O_EXCL: an entry that appeared at the name, a symlink too, fails it.
      await copyFile(file, tmp, constants.COPYFILE_EXCL);
    } catch (copyErr) {
      await rm(tmp, { force: true });
      throw copyErr;
    }
  }
  return tmp;
}
