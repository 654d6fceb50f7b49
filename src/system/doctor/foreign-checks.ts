import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { countOf } from '../../core/plural.js';
import { shellQuote } from '../../core/shell-quote.js';
import { pathExists } from '../../core/path-exists.js';
import { desktopFileNames, readEntryTarget } from '../../install/foreign-entries.js';
import { check, type DoctorCheck } from './types.js';

// What keepForeignFile (src/install/place.ts) names a file it kept aside: `<file>.foreign-<UTC time>[-n]`.
const FOREIGN_NAME = /\.foreign-\d{8}T\d{6}Z(?:-\d+)?$/;

/** At most this many names are shown in full; a folder holding more is summarised. */
const SHOWN = 10;
/** A storage_dir is scanned up to this many entries. */
const MAX_ENTRIES = 100_000;

/** `.foreign-` copies in the storage dirs: files someone else put at our targets, kept aside and never removed by us. */
export async function foreignFilesCheck(storageDirs: readonly string[]): Promise<DoctorCheck> {
  const found: string[] = [];
  for (const dir of storageDirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.slice(0, MAX_ENTRIES)) {
      if (!FOREIGN_NAME.test(name)) continue;
      const path = join(dir, name);
      if ((await lstat(path).catch(() => undefined))?.isFile()) found.push(path);
    }
  }
  if (found.length === 0) return check('foreign-files', 'ok', 'no files kept aside as .foreign-');
  found.sort();
  const shown = found.slice(0, SHOWN);
  const more = found.length - shown.length;
  return check(
    'foreign-files',
    'warn',
    `${countOf(found.length, 'file')} we did not install kept aside (their name was needed for an install): ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    `look at them, then remove what you do not need: rm -- ${shown.map(shellQuote).join(' ')}${more > 0 ? ' …' : ''}`,
  );
}

/**
 * AppImage desktop entries (another manager's, or any naming an `.AppImage`) in our applications
 * folder whose program is gone: a menu item that starts nothing. Ours are checked with state.
 */
export async function deadAppImageEntriesCheck(applicationsDir: string): Promise<DoctorCheck> {
  const dead: string[] = [];
  const files: string[] = [];
  for (const name of await desktopFileNames(applicationsDir)) {
    const path = join(applicationsDir, name);
    if (!(await lstat(path).catch(() => undefined))?.isFile()) continue;
    const read = readEntryTarget(path);
    if (!read?.appImage || !read.target || read.ours) continue;
    if (await pathExists(read.target)) continue;
    dead.push(`${path} → ${read.target}`);
    files.push(path);
  }
  if (dead.length === 0)
    return check('foreign-desktop-entries', 'ok', 'no AppImage desktop entry points at a missing file');
  const shown = dead.slice(0, SHOWN);
  const more = dead.length - shown.length;
  return check(
    'foreign-desktop-entries',
    'warn',
    `${countOf(dead.length, 'desktop entry', 'desktop entries')} ${dead.length === 1 ? 'starts' : 'start'} an AppImage that is gone: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    `the menu shows them but they start nothing; remove those you do not need (appimage-keeper never deletes entries it did not write): rm -- ${files.slice(0, SHOWN).map(shellQuote).join(' ')}${more > 0 ? ' …' : ''}`,
  );
}
