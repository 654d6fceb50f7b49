import { readdir } from 'node:fs/promises';

/** True for our temp files (`.appimage-keeper-<app>-…`); the previous-version folder is not one. */
export function isKeeperTemp(name: string): boolean {
  return name.startsWith('.appimage-keeper-') && name !== '.appimage-keeper-previous';
}

/** Our temp files directly inside `dir` (none when `dir` does not exist). */
export async function tempFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter(isKeeperTemp);
}
