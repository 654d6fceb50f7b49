import { KeeperError } from '../../core/errors.js';

/**
 * Splits an in-image path into components. Paths are always relative to the image root; a leading
 * `/` is accepted as "the root", `.` is dropped, and `..` may never climb above the root.
 */
export function splitImagePath(path: string): string[] {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw escape(path);
      parts.pop();
      continue;
    }
    if (part.includes('\0'))
      throw new KeeperError('SQUASHFS_BAD_PATH', `invalid path ${JSON.stringify(path)}`);
    parts.push(part);
  }
  return parts;
}

/** Error for a path or symlink that would leave the image. */
export function escape(path: string): KeeperError {
  return new KeeperError('SQUASHFS_UNSAFE_LINK', `path ${JSON.stringify(path)} points outside the image`, {
    hint: 'symlinks inside an AppImage are only followed when they stay inside it',
  });
}

/** Joins a symlink's relative target onto the directory that holds it, refusing escapes. */
export function resolveLinkTarget(dirParts: string[], target: string, linkPath: string): string[] {
  if (target.startsWith('/')) {
    // An absolute target names the host file system once the image is mounted: never ours to read.
    throw new KeeperError(
      'SQUASHFS_UNSAFE_LINK',
      `symlink ${JSON.stringify(linkPath)} points to the absolute path ${JSON.stringify(target)}`,
      { hint: 'symlinks inside an AppImage are only followed when they stay inside it' },
    );
  }
  const parts = [...dirParts];
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw escape(`${linkPath} -> ${target}`);
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts;
}
