import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { sha256 } from './sha256.js';

/** What a snapshot records beyond type, size, content hash and link target. */
export interface SnapshotOptions {
  /** Also record each entry's permission bits and modification time (to catch a mere touch). */
  metadata?: boolean;
}

/**
 * A full recursive listing of `dirs` (paths relative to `base`): every directory, the size and
 * SHA-256 of files, and the targets of symlinks (never followed), so two snapshots differ when
 * anything under them changed. Missing directories contribute nothing.
 */
export async function snapshotTree(
  base: string,
  dirs: string[],
  opts: SnapshotOptions = {},
): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const st = await lstat(path).catch(() => undefined);
    if (!st) return;
    const rel = relative(base, path);
    const meta = opts.metadata ? ` mode=${(st.mode & 0o7777).toString(8)} mtime=${st.mtimeMs}` : '';
    if (st.isSymbolicLink()) out.push(`link ${rel} -> ${await readlink(path)}${meta}`);
    else if (st.isDirectory()) {
      out.push(`dir  ${rel}${meta}`);
      for (const e of (await readdir(path)).sort()) await walk(join(path, e));
    } else out.push(`file ${rel} ${st.size} ${sha256(await readFile(path))}${meta}`);
  };
  for (const d of dirs) await walk(d);
  return out;
}
