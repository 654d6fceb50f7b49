import { chmod, copyFile, link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { appFileName } from '../core/file-names.js';
import { fsyncDir } from '../state/atomic-write.js';

/** Folder inside storage_dir for the version kept for rollback; hidden so it never looks current. */
export const PREVIOUS_DIR = '.appimage-keeper-previous';

/** Where the kept previous version of an app lives. */
export function previousPath(storageDir: string, name: string): string {
  return join(storageDir, PREVIOUS_DIR, `${appFileName(name)}.AppImage`);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Puts a verified temp file in place: mode 0755, rename over the target (atomic, so a running
 * copy of the old version keeps its inode), and only then removes the old file when its name
 * differs. With `keepPrevious`, the old file is first hard-linked (or copied) to the previous slot.
 */
export async function placeAppImage(opts: {
  tempPath: string;
  storageDir: string;
  fileName: string;
  name: string;
  oldFile: string | undefined;
  keepPrevious: boolean;
}): Promise<{ file: string; previous: string | undefined }> {
  const target = join(opts.storageDir, opts.fileName);
  await chmod(opts.tempPath, 0o755);
  let previous: string | undefined;
  if (opts.keepPrevious && opts.oldFile && (await exists(opts.oldFile))) {
    previous = previousPath(opts.storageDir, opts.name);
    await mkdir(join(opts.storageDir, PREVIOUS_DIR), { recursive: true });
    const tmp = `${previous}.${process.pid}.tmp`;
    await rm(tmp, { force: true });
    await link(opts.oldFile, tmp).catch(() => copyFile(opts.oldFile as string, tmp));
    await rename(tmp, previous);
  }
  await rename(opts.tempPath, target);
  await fsyncDir(opts.storageDir);
  if (opts.oldFile && opts.oldFile !== target) await rm(opts.oldFile, { force: true });
  return { file: target, previous };
}
