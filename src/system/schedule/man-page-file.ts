/**
 * The man page the unit's `Documentation=man:appimage-keeper(1)` names, for the standalone
 * executable, which has no package manager to install one: `schedule install` writes it into the
 * data folder man finds (`~/.local/share/man/man1`; `/usr/local/share/man/man1` with --system),
 * and `schedule remove` deletes it again when the first line says we wrote it.
 */
import { constants } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Paths } from '../../config/paths.js';
import { assertNoSymlinkBelow, ensureDirBelow } from '../../core/no-follow.js';
import { writeFileAtomic } from '../../core/atomic-files.js';

/** First line of a man page we wrote (a roff comment). */
export const MAN_PAGE_MARK = '.\\" Written by appimage-keeper schedule install; schedule remove deletes it.';

/** Where the man page goes for this layout. */
export function manPagePath(paths: Paths): string {
  return join(paths.dataHome, 'man', 'man1', 'appimage-keeper.1');
}

/** Writes `text` (the rendered page) with our mark; never through a symlink below the data folder. */
export async function writeManPage(paths: Paths, text: string): Promise<string> {
  const file = manPagePath(paths);
  await ensureDirBelow(paths.dataHome, join(paths.dataHome, 'man', 'man1'));
  await writeFileAtomic(file, `${MAN_PAGE_MARK}\n${text}`, { root: paths.dataHome, mode: 0o644 });
  return file;
}

/** Deletes the man page when it is a regular file we wrote; returns its path then. */
export async function removeManPage(paths: Paths): Promise<string | undefined> {
  const file = manPagePath(paths);
  let head: string;
  try {
    await assertNoSymlinkBelow(paths.dataHome, file);
    const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (!(await fh.stat()).isFile()) return undefined;
      const buf = Buffer.alloc(MAN_PAGE_MARK.length);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    // Missing, a symlink, unreadable: not a page we can say we wrote.
    return undefined;
  }
  if (head !== MAN_PAGE_MARK) return undefined;
  await rm(file, { force: true });
  return file;
}
