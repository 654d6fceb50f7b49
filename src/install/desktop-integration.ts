import { dirname, join } from 'node:path';
import { getGroup, getRaw, getString, MAIN_GROUP, serializeDesktopEntry } from '../appimage/desktop-entry.js';
import type { FoundIcon } from '../appimage/icon-choice.js';
import { readDesktopAndIcon } from '../appimage/metadata.js';
import { openAppImage } from '../appimage/open-appimage.js';
import { refreshDesktopCaches } from './desktop-caches.js';
import { writeFileAtomic } from '../core/atomic-files.js';
import { makeManagedDir, managedMode } from '../core/file-modes.js';
import { pruneEmptyDirs, readIfExists, removeIfExists } from './desktop-fs.js';
import { DesktopClaims, iconNameOf } from './desktop-claims.js';
import { OUR_PREFIX, safeUpstreamId } from './desktop-names.js';
import { repairDesktopEntry } from './desktop-repair.js';
import { rewriteDesktopEntry } from './desktop-rewrite.js';
import { chooseDesktopTarget, claimIconName, markOf } from './desktop-target.js';
import { iconsRoot, iconTargetPath, looksLikeOurIcon } from './icon-install.js';

export { readAppImageMetadata, type AppImageMetadata } from '../appimage/metadata.js';
export { markOf } from './desktop-target.js';

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
  /** $XDG_DATA_DIRS: an upstream id one of their `applications/` provides is not used. */
  dataDirs?: readonly string[] | undefined;
  /** Desktop ids and icon names held by apps (one instance per run); a fresh one when absent. */
  claims?: DesktopClaims | undefined;
  execArgs: string[];
  env: Record<string, string>;
  previous?: IntegrationRecord | undefined;
}

/** Which desktop id was used and why, or why no entry was installed (shown in outcomes). */
export interface DesktopPlacement {
  /** The id written (file name without `.desktop`); null when no entry was installed. */
  id: string | null;
  file: string | null;
  /** The AppImage's own desktop file name without `.desktop`. */
  upstreamId: string | null;
  /** Why our own id was used instead of the upstream one. */
  fallbackReason?: string | undefined;
  /** Why no entry was installed (the entry asked not to be, or cannot launch an application). */
  skipped?: string | undefined;
}

/** What integration installed, what went wrong along the way, and how much of the AppImage it read. */
export interface IntegrateResult {
  /** Undefined when no entry was installed (see `placement.skipped`). */
  record: IntegrationRecord | undefined;
  placement: DesktopPlacement;
  warnings: string[];
  /** Bytes read from the AppImage's SquashFS (the benchmark's measure of laziness). */
  bytesRead: number;
}

/** icons/hicolor/<size>/apps: two levels (apps, <size>) may be pruned after removing an icon. */
const ICON_DIR_LEVELS = 2;
const NO_INTEGRATE = 'the AppImage asks not to be integrated (X-AppImage-Integrate=false)';

/** True when a desktop file carries our mark (`X-AppImage-Keeper-App=`). */
export function isOurDesktopFile(text: string): boolean {
  return markOf(text) !== undefined;
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
  if (existing === undefined || !existing.equals(icon.data)) {
    await makeManagedDir(iconsRoot(dataHome));
    await writeFileAtomic(target, icon.data, { root: iconsRoot(dataHome), mode: managedMode('icon') });
  }
  return target;
}

/**
 * Installs the AppImage's desktop entry and icon under dataHome (never running the AppImage):
 * reads its root .desktop and icon in-process, honours `X-AppImage-Integrate=false`, repairs what the
 * spec requires, chooses a desktop id no other entry provides, rewrites Exec/TryExec/Icon, marks the
 * entry as ours, writes both atomically, removes what a previous integration installed and no
 * longer needs, and refreshes existing desktop caches.
 */
export async function integrateDesktop(opts: IntegrateOptions): Promise<IntegrateResult> {
  const warnings: string[] = [];
  const claims = opts.claims ?? new DesktopClaims();
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
  const upstreamId = safeUpstreamId(found.desktopFileName);
  const placement: DesktopPlacement = { id: null, file: null, upstreamId: upstreamId ?? null };
  const skip = async (reason: string): Promise<IntegrateResult> => {
    // The new version must not keep the entry an earlier version got.
    if (opts.previous) await removeStale(opts.previous, undefined, opts.appName, claims, warnings);
    warnings.push(...(await refreshDesktopCaches({ applicationsDir, hicolorDir, declaresMimeTypes: false })));
    return { record: undefined, placement: { ...placement, skipped: reason }, warnings, bytesRead };
  };
  const integrate = getString(found.desktopEntry, MAIN_GROUP, 'X-AppImage-Integrate');
  if (integrate?.trim().toLowerCase() === 'false') return skip(NO_INTEGRATE);
  const repaired = repairDesktopEntry(found.desktopEntry, opts.appName, warnings);
  if (!repaired.ok) {
    warnings.push(`not installing a desktop entry: ${repaired.reason}`);
    return skip(repaired.reason);
  }

  const upstreamInvalid = upstreamId
    ? undefined
    : `desktop file name ${JSON.stringify(found.desktopFileName)} is not a valid id`;
  const target = await chooseDesktopTarget(
    { applicationsDir, dataDirs: opts.dataDirs ?? [] },
    upstreamId,
    upstreamInvalid,
    opts.appName,
    claims,
  );

  const icons: string[] = [];
  const iconName = found.icon ? claimIconName(opts.appName, claims) : undefined;
  if (found.icon && iconName) {
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
  await makeManagedDir(applicationsDir);
  await writeFileAtomic(target.path, serializeDesktopEntry(entry), {
    root: applicationsDir,
    mode: managedMode('desktop-entry'),
  });

  const record: IntegrationRecord = { desktopId: target.id, desktopFile: target.path, icons };
  if (opts.previous) await removeStale(opts.previous, record, opts.appName, claims, warnings);

  const declaresMimeTypes = getRaw(getGroup(entry, MAIN_GROUP), 'MimeType') !== undefined;
  warnings.push(...(await refreshDesktopCaches({ applicationsDir, hicolorDir, declaresMimeTypes })));
  return {
    record,
    placement: { ...placement, id: target.id, file: target.path, fallbackReason: target.fallbackReason },
    warnings,
    bytesRead,
  };
}

/** Removes the previous integration's files that the new one no longer uses (only this app's). */
async function removeStale(
  previous: IntegrationRecord,
  current: IntegrationRecord | undefined,
  app: string,
  claims: DesktopClaims,
  warnings: string[],
): Promise<void> {
  if (previous.desktopFile !== current?.desktopFile) {
    const text = await readIfExists(previous.desktopFile);
    if (text !== undefined) {
      const mark = markOf(text.toString('utf8'));
      if (mark === app) await removeIfExists(previous.desktopFile);
      else warnings.push(`left ${previous.desktopFile} in place: it no longer carries our mark for ${app}`);
    }
  }
  for (const icon of previous.icons) {
    if (current?.icons.includes(icon) || !ownsIcon(icon, app, claims)) continue;
    if (await removeIfExists(icon)) await pruneEmptyDirs(dirname(icon), ICON_DIR_LEVELS);
  }
}

/** An icon path is this app's to delete: it has our shape and no other app holds its name. */
function ownsIcon(icon: string, app: string, claims: DesktopClaims): boolean {
  return looksLikeOurIcon(icon, OUR_PREFIX) && claims.holder('icon', iconNameOf(icon), app) === undefined;
}

/**
 * Undoes an integration exactly as recorded, for `app` only: the desktop file is removed only while
 * its mark names `app`, icons only when their path has the shape of ours and no other app holds
 * their name (`claims`, from state); emptied icon size directories are pruned.
 */
export async function removeIntegration(
  record: IntegrationRecord,
  app: string,
  claims: DesktopClaims = new DesktopClaims(),
): Promise<{ removed: string[]; missing: string[]; skipped: string[] }> {
  const out = { removed: [] as string[], missing: [] as string[], skipped: [] as string[] };
  const text = record.desktopFile.endsWith('.desktop') ? await readIfExists(record.desktopFile) : undefined;
  if (!record.desktopFile.endsWith('.desktop')) out.skipped.push(record.desktopFile);
  else if (text === undefined) out.missing.push(record.desktopFile);
  else if (markOf(text.toString('utf8')) !== app) out.skipped.push(record.desktopFile);
  else if (await removeIfExists(record.desktopFile)) out.removed.push(record.desktopFile);
  else out.missing.push(record.desktopFile);

  for (const icon of record.icons) {
    if (!ownsIcon(icon, app, claims)) {
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
