import { join } from 'node:path';
import { KeeperError } from '../core/errors.js';
import type { DesktopClaims } from './desktop-claims.js';
import { readIfExists } from './desktop-fs.js';
import { findDesktopId } from './desktop-id-lookup.js';
import { OUR_MARK_KEY, ourNames } from './desktop-names.js';

const MARK_RE = new RegExp(`^${OUR_MARK_KEY}[ \\t]*=[ \\t]*(.*)$`, 'm');

/** The app name in our mark (`X-AppImage-Keeper-App=`), or undefined for a file that is not ours. */
export function markOf(text: string): string | undefined {
  return MARK_RE.exec(text)?.[1]?.trim();
}

/** Where the desktop file goes, and why our own id was used instead of the upstream one. */
export interface DesktopTarget {
  id: string;
  path: string;
  /** Set when the upstream id was not used. */
  fallbackReason?: string | undefined;
}

/** Where the target is looked up: our applications dir and the system's data dirs. */
export interface TargetDirs {
  /** `$XDG_DATA_HOME/applications`. */
  applicationsDir: string;
  /** `$XDG_DATA_DIRS` entries (their `applications/` sub-directories are searched). */
  dataDirs: readonly string[];
}

/**
 * Why `id` cannot be ours for `app`, or undefined when it can. The claim is taken first, in the same
 * synchronous step as the check, so a concurrent app of the same run cannot pass the same test.
 */
async function unavailable(
  dirs: TargetDirs,
  id: string,
  app: string,
  claims: DesktopClaims,
  system: boolean,
): Promise<string | undefined> {
  if (!claims.claim('desktop', id, app)) {
    return `${id}.desktop belongs to app ${claims.holder('desktop', id, app) ?? '?'}`;
  }
  const reason = await onDisk(dirs, id, app, system);
  if (reason !== undefined) claims.release('desktop', id, app);
  return reason;
}

async function onDisk(
  dirs: TargetDirs,
  id: string,
  app: string,
  system: boolean,
): Promise<string | undefined> {
  if (system) {
    for (const dataDir of dirs.dataDirs) {
      const appsDir = join(dataDir, 'applications');
      if (appsDir === dirs.applicationsDir) continue;
      const found = await findDesktopId(appsDir, id);
      // Ours would shadow it: the system's entry (and its MIME handlers) must stay in charge.
      if (found) return `${id}.desktop is provided by ${found}`;
    }
  }
  const path = join(dirs.applicationsDir, `${id}.desktop`);
  const existing = await readIfExists(path);
  if (existing === undefined) {
    const nested = await findDesktopId(dirs.applicationsDir, id);
    return nested ? `${id}.desktop is provided by ${nested}` : undefined;
  }
  const mark = markOf(existing.toString('utf8'));
  if (mark === app) return undefined;
  return mark === undefined
    ? `${path} exists and was not installed by appimage-keeper`
    : `${path} was installed by appimage-keeper for app ${mark}`;
}

/**
 * Decides where the desktop file goes: the upstream id when no other entry provides that id (in any
 * `$XDG_DATA_DIRS/applications`, or in ours unless it is this app's) and no other app holds it;
 * otherwise `appimage-keeper-<app>.desktop` (or its hashed variant when another app's name reduces
 * to the same). A file that is not this app's is never overwritten.
 */
export async function chooseDesktopTarget(
  dirs: TargetDirs,
  upstreamId: string | undefined,
  upstreamInvalid: string | undefined,
  app: string,
  claims: DesktopClaims,
): Promise<DesktopTarget> {
  let fallbackReason = upstreamInvalid;
  if (upstreamId !== undefined) {
    fallbackReason = await unavailable(dirs, upstreamId, app, claims, true);
    if (fallbackReason === undefined) {
      return { id: upstreamId, path: join(dirs.applicationsDir, `${upstreamId}.desktop`) };
    }
  }
  for (const id of ourNames(app)) {
    if ((await unavailable(dirs, id, app, claims, false)) === undefined) {
      return { id, path: join(dirs.applicationsDir, `${id}.desktop`), fallbackReason };
    }
  }
  throw new KeeperError(
    'DESKTOP_FILE_CONFLICT',
    `${join(dirs.applicationsDir, `${ourNames(app)[0]}.desktop`)} exists and was not installed by appimage-keeper for ${app}`,
    { hint: 'move that file away, or set manage_desktop_files: false for this app' },
  );
}

/** Takes our icon name for the app (the hashed variant when another app holds the plain one). */
export function claimIconName(app: string, claims: DesktopClaims): string | undefined {
  return ourNames(app).find((name) => claims.claim('icon', name, app));
}
