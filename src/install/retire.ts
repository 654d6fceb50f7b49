/**
 * Retiring another manager's files (a desktop entry, its icons) when we take an AppImage over:
 * each is moved into our backup folder, never deleted, and put back by `restoreRetired`. Only
 * regular files move (a link is left alone); nothing is ever written over an existing file.
 */
import { constants, copyFile, link, lstat, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ensureDirBelow } from '../core/no-follow.js';

/** One retired file: where it was and where it is kept. */
export interface RetiredFile {
  from: string;
  backup: string;
}

const exists = (p: string): Promise<boolean> =>
  lstat(p).then(
    () => true,
    () => false,
  );

// Moves `from` to `to` without replacing `to`: a hard link (or an exclusive copy across file
// systems), then the original name removed.
async function moveNoReplace(from: string, to: string): Promise<void> {
  await link(from, to).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV' && err.code !== 'EPERM') throw err;
    await copyFile(from, to, constants.COPYFILE_EXCL);
  });
  await rm(from);
}

// A name in `dir` not taken yet: `name`, then `name.1`, `name.2`, ….
async function freeName(dir: string, name: string): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const candidate = join(dir, i === 0 ? name : `${name}.${i}`);
    if (!(await exists(candidate))) return candidate;
  }
  throw new Error(`no free name for ${name} in ${dir}`);
}

/**
 * Moves each file into `backupDir` (created below `root`, never through a link). Returns what was
 * moved and, for each file that could not be, why.
 */
export async function retireFiles(
  files: readonly string[],
  root: string,
  backupDir: string,
): Promise<{ retired: RetiredFile[]; errors: string[] }> {
  const retired: RetiredFile[] = [];
  const errors: string[] = [];
  for (const from of files) {
    try {
      if (!(await lstat(from)).isFile()) throw new Error('not a regular file; left where it is');
      await ensureDirBelow(root, backupDir, 0o700);
      const backup = await freeName(backupDir, basename(from));
      await moveNoReplace(from, backup);
      retired.push({ from, backup });
    } catch (err) {
      errors.push(`${from}: ${(err as Error).message}`);
    }
  }
  return { retired, errors };
}

/**
 * Puts retired files back where they were. A file that now exists at the original place is not
 * replaced: its backup stays and is reported.
 */
export async function restoreRetired(
  files: readonly RetiredFile[],
): Promise<{ restored: string[]; kept: string[]; errors: string[] }> {
  const restored: string[] = [];
  const kept: string[] = [];
  const errors: string[] = [];
  for (const f of files) {
    try {
      if (!(await exists(f.backup))) {
        errors.push(`${f.backup}: the backup of ${f.from} is gone`);
        continue;
      }
      if (await exists(f.from)) {
        kept.push(f.backup);
        continue;
      }
      await mkdir(dirname(f.from), { recursive: true });
      await moveNoReplace(f.backup, f.from);
      restored.push(f.from);
    } catch (err) {
      errors.push(`${f.from}: ${(err as Error).message}`);
    }
  }
  return { restored, kept, errors };
}
