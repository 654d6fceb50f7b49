import { dirname, join } from 'node:path';
import { getGroup, getRaw, MAIN_GROUP, serializeDesktopEntry } from '../appimage/desktop-entry.js';
import type { FoundIcon } from '../appimage/icon-choice.js';
import { readDesktopAndIcon } from '../appimage/metadata.js';
import { openAppImage } from '../appimage/open-appimage.js';
import { KeeperError } from '../core/errors.js';
import { refreshDesktopCaches } from './desktop-caches.js';
import { pruneEmptyDirs, readIfExists, removeIfExists, writeFileAtomic } from './desktop-fs.js';
import { OUR_MARK_KEY, OUR_PREFIX, ourName, safeUpstreamId } from './desktop-names.js';
import { rewriteDesktopEntry } from './desktop-rewrite.js';
import { iconTargetPath, looksLikeOurIcon } from './icon-install.js';

export { readAppImageMetadata, type AppImageMetadata } from '../appimage/metadata.js';

/** Every path one integration installed, kept in state so removal undoes exactly that. */
export interface IntegrationRecord {
  desktopId: string;
  desktopFile: string;
  /** Absolute paths of the icons we installed. */
  icons: string[];
}

export interface IntegrateOptions {
  appName: string;
  /** Installed file to read. */
  appImagePath: string;
  /** Path to put in Exec/TryExec (the AppImage or its symlink). */
  execPath: string;
  /** $XDG_DATA_HOME */
  dataHome: string;
  execArgs: string[];
  env: Record<string, string>;
  previous?: IntegrationRecord | undefined;
}

/** What integration installed, what went wrong along the way, and how much of the AppImage it read. */
export interface IntegrateResult {
  record: IntegrationRecord;
  warnings: string[];
  /** Bytes read from the AppImage's SquashFS (the benchmark's measure of laziness). */
  bytesRead: number;
}

const MARK_RE = new RegExp(`^${OUR_MARK_KEY}[ \\t]*=[ \\t]*(.*)$`, 'm');
/** icons/hicolor/<size>/apps: two levels (apps, <size>) may be pruned after removing an icon. */
const ICON_DIR_LEVELS = 2;

/** True when a desktop file carries our mark (`X-AppImage-Keeper-App=`). */
export function isOurDesktopFile(text: string): boolean {
  return markOf(text) !== undefined;
}

/** The app name in our mark (`X-AppImage-Keeper-App=`), or undefined for a file that is not ours. */
export function markOf(text: string): string | undefined {
  return MARK_RE.exec(text)?.[1]?.trim();
}

/**
 * Decides where the desktop file goes: the upstream id when that file is free (absent, or ours for
 * this app), else `appimage-keeper-<app>.desktop`; a foreign file is never overwritten.
 */
async function chooseDesktopTarget(
  applicationsDir: string,
  upstreamId: string | undefined,
  app: string,
  previous: IntegrationRecord | undefined,
): Promise<{ id: string; path: string }> {
  const ids = [...(upstreamId ? [upstreamId] : []), ourName(app)];
  for (const id of ids) {
    const path = join(applicationsDir, `${id}.desktop`);
    const existing = await readIfExists(path);
    if (existing === undefined) return { id, path };
    const mark = markOf(existing.toString('utf8'));
    if (mark !== undefined && (mark === app || previous?.desktopFile === path)) return { id, path };
  }
  throw new KeeperError(
    'DESKTOP_FILE_CONFLICT',
    `${join(applicationsDir, `${ourName(app)}.desktop`)} exists and was not installed by appimage-keeper`,
    { hint: 'move that file away, or set manage_desktop_files: false for this app' },
  );
}

/** Installs the icon unless a foreign file holds its place; returns the installed path. */
async function installIcon(
  icon: FoundIcon,
  dataHome: string,
  iconName: string,
  previous: IntegrationRecord | undefined,
  warnings: string[],
): Promise<string | undefined> {
  const target = iconTargetPath(dataHome, icon, iconName);
  const existing = await readIfExists(target);
  if (existing !== undefined && !previous?.icons.includes(target) && !existing.equals(icon.data)) {
    warnings.push(`not overwriting ${target}: it was not installed by appimage-keeper`);
    return undefined;
  }
  if (existing === undefined || !existing.equals(icon.data)) await writeFileAtomic(target, icon.data);
  return target;
}

/**
 * Installs the AppImage's desktop entry and icon under dataHome (never running the AppImage):
 * reads its root .desktop and icon in-process, rewrites Exec/TryExec/Icon, marks the entry as ours,
 * writes both atomically, removes what a previous integration installed and no longer needs, and
 * refreshes existing desktop caches.
 */
export async function integrateDesktop(opts: IntegrateOptions): Promise<IntegrateResult> {
  const warnings: string[] = [];
  const { image } = await openAppImage(opts.appImagePath);
  let found: Awaited<ReturnType<typeof readDesktopAndIcon>>;
  try {
    found = await readDesktopAndIcon(image, [opts.appName, opts.appImagePath], warnings);
  } finally {
    await image.close();
  }
  const bytesRead = image.bytesRead;

  const applicationsDir = join(opts.dataHome, 'applications');
  const hicolorDir = join(opts.dataHome, 'icons', 'hicolor');
  const iconName = ourName(opts.appName);
  const upstreamId = safeUpstreamId(found.desktopFileName);
  if (!upstreamId)
    warnings.push(
      `desktop file name ${JSON.stringify(found.desktopFileName)} is not a valid id; using ${iconName}`,
    );
  const target = await chooseDesktopTarget(applicationsDir, upstreamId, opts.appName, opts.previous);

  const icons: string[] = [];
  if (found.icon) {
    const installed = await installIcon(found.icon, opts.dataHome, iconName, opts.previous, warnings);
    if (installed) icons.push(installed);
  }
  const entry = rewriteDesktopEntry(found.desktopEntry, {
    appName: opts.appName,
    execPath: opts.execPath,
    execArgs: opts.execArgs,
    env: opts.env,
    iconName: icons.length > 0 ? iconName : undefined,
  });
  await writeFileAtomic(target.path, serializeDesktopEntry(entry));

  const record: IntegrationRecord = { desktopId: target.id, desktopFile: target.path, icons };
  if (opts.previous) await removeStale(opts.previous, record, opts.appName, warnings);

  const declaresMimeTypes = getRaw(getGroup(entry, MAIN_GROUP), 'MimeType') !== undefined;
  warnings.push(...(await refreshDesktopCaches({ applicationsDir, hicolorDir, declaresMimeTypes })));
  return { record, warnings, bytesRead };
}

/** Removes the previous integration's files that the new one no longer uses (only ours). */
async function removeStale(
  previous: IntegrationRecord,
  current: IntegrationRecord,
  app: string,
  warnings: string[],
): Promise<void> {
  if (previous.desktopFile !== current.desktopFile) {
    const text = await readIfExists(previous.desktopFile);
    if (text !== undefined) {
      const mark = markOf(text.toString('utf8'));
      if (mark === app) await removeIfExists(previous.desktopFile);
      else warnings.push(`left ${previous.desktopFile} in place: it no longer carries our mark for ${app}`);
    }
  }
  for (const icon of previous.icons) {
    if (current.icons.includes(icon) || !looksLikeOurIcon(icon, OUR_PREFIX)) continue;
    if (await removeIfExists(icon)) await pruneEmptyDirs(dirname(icon), ICON_DIR_LEVELS);
  }
}

/**
 * Undoes an integration exactly as recorded: the desktop file is removed only while it carries our
 * mark, icons only when their path has the shape of ours; emptied icon size directories are pruned.
 */
export async function removeIntegration(
  record: IntegrationRecord,
): Promise<{ removed: string[]; missing: string[]; skipped: string[] }> {
  const out = { removed: [] as string[], missing: [] as string[], skipped: [] as string[] };
  const text = record.desktopFile.endsWith('.desktop') ? await readIfExists(record.desktopFile) : undefined;
  if (!record.desktopFile.endsWith('.desktop')) out.skipped.push(record.desktopFile);
  else if (text === undefined) out.missing.push(record.desktopFile);
  else if (!isOurDesktopFile(text.toString('utf8'))) out.skipped.push(record.desktopFile);
  else if (await removeIfExists(record.desktopFile)) out.removed.push(record.desktopFile);
  else out.missing.push(record.desktopFile);

  for (const icon of record.icons) {
    if (!looksLikeOurIcon(icon, OUR_PREFIX)) {
      out.skipped.push(icon);
    } else if (await removeIfExists(icon)) {
      out.removed.push(icon);
      await pruneEmptyDirs(dirname(icon), ICON_DIR_LEVELS);
    } else {
      out.missing.push(icon);
    }
  }
  const applicationsDir = dirname(record.desktopFile);
  const hicolorDir = join(dirname(applicationsDir), 'icons', 'hicolor');
  await refreshDesktopCaches({ applicationsDir, hicolorDir, declaresMimeTypes: false });
  return out;
}
