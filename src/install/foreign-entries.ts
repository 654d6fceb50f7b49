/**
 * Desktop entries other AppImage managers wrote: AppImageLauncher (libappimage) names them
 * `appimagekit_<md5>-<Name>.desktop` with icons `appimagekit_<md5>_<icon>.<ext>` in the icon
 * theme folders; Gear Lever names them `gearlever_<name>_<hash>.appimage.desktop` (its AppImage's
 * file name plus `.desktop`) with the icon copied to `<its folder>/.icons/<AppImage file name>`.
 * Read with a byte cap, never followed through links, bounded in number.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { getExec, getGroup, getString, MAIN_GROUP, parseDesktopEntry } from '../appimage/desktop-entry.js';
import { assertNoSymlinkBelow } from '../core/no-follow.js';
import { readSmallFileSync } from '../core/small-file.js';
import { OUR_MARK_KEY } from './desktop-names.js';

/** Which manager wrote an entry. */
export type ForeignManager = 'appimagelauncher' | 'gearlever';

/** One foreign desktop entry and the icons that belong to it. */
export interface ForeignEntry {
  manager: ForeignManager;
  entry: string;
  icons: string[];
}

const LAUNCHER_ENTRY = /^appimagekit_([0-9a-f]{32})-.+\.desktop$/;
const GEAR_LEVER_ENTRY = /^gearlever_.+\.desktop$/i;
// A desktop entry is a few KiB; anything bigger is not one we act on.
const MAX_ENTRY_BYTES = 64 << 10;
const MAX_ENTRIES = 10_000;
// Icon theme folders: icons/<theme>/<size>/<context>/<file>.
const MAX_ICON_FILES = 50_000;

/** The manager whose naming an entry's file name follows. */
export function foreignManagerOf(entryName: string): ForeignManager | undefined {
  if (LAUNCHER_ENTRY.test(entryName)) return 'appimagelauncher';
  if (GEAR_LEVER_ENTRY.test(entryName)) return 'gearlever';
  return undefined;
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isFile() === true;
}

/** The absolute program an entry's Exec (else TryExec) line starts; whether it is an AppImage's entry, and ours. */
export function readEntryTarget(
  path: string,
): { target: string | undefined; icon: string | undefined; appImage: boolean; ours: boolean } | undefined {
  const file = readSmallFileSync(path, MAX_ENTRY_BYTES);
  if (file.kind !== 'text') return undefined;
  let entry;
  try {
    entry = parseDesktopEntry(file.text);
  } catch {
    // Not a desktop entry we can read (any file may sit there): nothing to match or retire.
    return undefined;
  }
  const main = getGroup(entry, MAIN_GROUP);
  const program = getExec(main)?.[0] ?? getString(entry, MAIN_GROUP, 'TryExec')?.trim();
  const target = program && isAbsolute(program) ? program : undefined;
  const appImage =
    foreignManagerOf(basename(path)) !== undefined ||
    /\.appimage$/i.test(target ?? '') ||
    getString(entry, MAIN_GROUP, 'X-AppImage-Version') !== undefined;
  const ours = getString(entry, MAIN_GROUP, OUR_MARK_KEY) !== undefined;
  return { target, icon: getString(entry, MAIN_GROUP, 'Icon')?.trim(), appImage, ours };
}

/** Names of the `.desktop` files in `dir` (bounded; none when it cannot be read). */
export async function desktopFileNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .slice(0, MAX_ENTRIES)
    .filter((n) => n.endsWith('.desktop'))
    .sort();
}

// AppImageLauncher's icons of one md5, anywhere in the icon theme folders (depth 4, bounded).
async function launcherIcons(iconsDir: string, md5: string): Promise<string[]> {
  const prefix = `appimagekit_${md5}_`;
  const found: string[] = [];
  let seen = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > MAX_ICON_FILES) return;
      const path = join(dir, e.name);
      if (e.isDirectory() && depth > 0) await walk(path, depth - 1);
      else if (e.isFile() && e.name.startsWith(prefix)) found.push(path);
    }
  };
  await walk(iconsDir, 3);
  return found.sort();
}

// Gear Lever's icon copy sits in `.icons` beside the AppImages it manages; nothing else is taken.
// A `.icons` that is a link leads to someone else's folder: its file is not Gear Lever's copy.
async function gearLeverIcon(icon: string | undefined, appImage: string): Promise<string[]> {
  if (!icon || !isAbsolute(icon)) return [];
  const folder = dirname(appImage);
  if (dirname(icon) !== join(folder, '.icons')) return [];
  const unlinked = await assertNoSymlinkBelow(folder, icon).then(
    () => true,
    () => false,
  );
  return unlinked && (await isRegularFile(icon)) ? [icon] : [];
}

/**
 * The entries AppImageLauncher or Gear Lever wrote for `appImage` (its Exec names that file), with
 * their icons. Entries of other files and entries no manager named are never returned.
 */
export async function foreignEntriesFor(
  appImage: string,
  dirs: { applicationsDir: string; iconsDir: string },
): Promise<ForeignEntry[]> {
  const real = await realpath(appImage).catch(() => appImage);
  const out: ForeignEntry[] = [];
  for (const name of await desktopFileNames(dirs.applicationsDir)) {
    const manager = foreignManagerOf(name);
    if (!manager) continue;
    const path = join(dirs.applicationsDir, name);
    if (!(await isRegularFile(path))) continue;
    const read = readEntryTarget(path);
    if (!read?.target || read.ours) continue;
    const target = await realpath(read.target).catch(() => read.target);
    if (target !== real && read.target !== appImage) continue;
    const md5 = LAUNCHER_ENTRY.exec(name)?.[1];
    const icons =
      manager === 'appimagelauncher' && md5
        ? await launcherIcons(dirs.iconsDir, md5)
        : await gearLeverIcon(read.icon, read.target);
    out.push({ manager, entry: path, icons });
  }
  return out;
}
