import { lstat, readlink, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { KeeperError } from '../core/errors.js';
import { appFileName } from '../core/file-names.js';
import { makeManagedDir } from '../core/file-modes.js';

/**
 * Points `<dir>/<name>` (the app name's file-name-safe form) at `target`, replacing it atomically (temp link + rename). An existing
 * entry is only replaced when it is the symlink we created before (`ours`), or a symlink into
 * `storageDir`; a regular file or a foreign link is never touched.
 */
export async function placeSymlink(opts: {
  dir: string;
  name: string;
  target: string;
  storageDir: string;
  ours: string | undefined;
}): Promise<string> {
  const link = join(opts.dir, appFileName(opts.name));
  await makeManagedDir(opts.dir);
  const st = await lstat(link).catch(() => undefined);
  if (st) {
    if (!st.isSymbolicLink()) {
      throw new KeeperError('SYMLINK_CONFLICT', `${link} exists and is not a symlink; not replacing it`, {
        hint: 'move it away or set create_symlinks: false for this app',
      });
    }
    const current = await readlink(link);
    const resolved = current.startsWith('/') ? current : join(dirname(link), current);
    if (opts.ours !== link && !resolved.startsWith(`${opts.storageDir}/`)) {
      throw new KeeperError(
        'SYMLINK_CONFLICT',
        `${link} points at ${current}, which we did not create; not replacing it`,
      );
    }
  }
  const tmp = join(opts.dir, `.${appFileName(opts.name)}.appimage-keeper-link-${process.pid}`);
  await rm(tmp, { force: true });
  await symlink(opts.target, tmp);
  await rename(tmp, link);
  return link;
}

/** Removes our symlink if it is still a symlink; reports whether it was there. */
export async function removeSymlink(link: string): Promise<'removed' | 'missing' | 'not-a-symlink'> {
  const st = await lstat(link).catch(() => undefined);
  if (!st) return 'missing';
  if (!st.isSymbolicLink()) return 'not-a-symlink';
  await rm(link, { force: true });
  return 'removed';
}
