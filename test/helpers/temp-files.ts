import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_PREFIX } from '../../src/core/file-names.js';

/** Our folders in storage_dir that are not temp files: kept previous versions and owner records. */
const KEEPER_FOLDERS = ['.appimage-keeper-previous', '.appimage-keeper-owners'];

/** True for our temp files (`.appimage-keeper~<app>~…`, or an earlier version's `.appimage-keeper-<app>-…`); our folders are not. */
export function isKeeperTemp(name: string): boolean {
  return (
    name.startsWith(TEMP_PREFIX) || (name.startsWith('.appimage-keeper-') && !KEEPER_FOLDERS.includes(name))
  );
}

/** Our temp files directly inside `dir` (none when `dir` does not exist). */
export async function tempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter(isKeeperTemp);
}

/** The cache folder of a run's environment where interrupted downloads are kept (`partials/`). */
export function partialsDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CACHE_HOME ?? '', 'appimage-keeper', 'partials');
}

/** Partial downloads (`partials/<hash>/data`) holding at least one byte: a download under way or kept. */
export async function partialDownloads(env: NodeJS.ProcessEnv): Promise<string[]> {
  const root = partialsDir(env);
  const out: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const data = join(root, name, 'data');
    const st = await stat(data).catch(() => undefined);
    if (st && st.size > 0) out.push(data);
  }
  return out;
}

/** Bytes in all partial downloads of the environment's cache (grows while a download runs). */
export async function partialBytes(env: NodeJS.ProcessEnv): Promise<number> {
  let n = 0;
  for (const data of await partialDownloads(env)) n += (await stat(data).catch(() => ({ size: 0 }))).size;
  return n;
}
