import { readdir } from 'node:fs/promises';
import { TEMP_PREFIX } from '../../src/core/file-names.js';

/** True for our temp files (`.appimage-keeper~<app>~…`, or an earlier version's `.appimage-keeper-<app>-…`); the previous-version folder is not one. */
export function isKeeperTemp(name: string): boolean {
  return (
    name.startsWith(TEMP_PREFIX) ||
    (name.startsWith('.appimage-keeper-') && name !== '.appimage-keeper-previous')
  );
}

/** Our temp files directly inside `dir` (none when `dir` does not exist). */
export async function tempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter(isKeeperTemp);
}
