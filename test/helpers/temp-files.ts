import { readdir } from 'node:fs/promises';
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
