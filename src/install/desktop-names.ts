import { appFileName } from '../core/file-names.js';

/** Prefix of every desktop file and icon name we invent, so ours never clash with anyone else's. */
export const OUR_PREFIX = 'appimage-keeper-';
/** The key that marks a desktop file as installed by us, holding the app name. */
export const OUR_MARK_KEY = 'X-AppImage-Keeper-App';

/** The app name reduced to characters safe in file names and desktop ids. */
export function safeAppName(app: string): string {
  // Desktop ids hold no `+`; everything else follows the one file-name rule.
  return appFileName(app).replaceAll('+', '_');
}

/** Our own desktop id and icon name for an app: `appimage-keeper-<app>`. */
export function ourName(app: string): string {
  return `${OUR_PREFIX}${safeAppName(app)}`;
}

/**
 * The upstream desktop id (file name without `.desktop`) when it is a valid, safe id: letters,
 * digits, `_`, `-` and `.`, not starting with `.` or `-`. Anything else is refused so a name from
 * the image can never form a path.
 */
export function safeUpstreamId(desktopFileName: string): string | undefined {
  const id = desktopFileName.replace(/\.desktop$/, '');
  if (!id || id.length > 200 || !/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(id)) return undefined;
  return id;
}
