import { createHash } from 'node:crypto';

/** Prefix of every desktop file and icon name we invent, so ours never clash with anyone else's. */
export const OUR_PREFIX = 'appimage-keeper-';
/** The key that marks a desktop file as installed by us, holding the app name. */
export const OUR_MARK_KEY = 'X-AppImage-Keeper-App';

/** The app name reduced to characters safe in file names and desktop ids. */
export function safeAppName(app: string): string {
  const safe = app.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[.-]+/, '');
  return safe || 'app';
}

/** Our own desktop id and icon name for an app: `appimage-keeper-<app>`. */
export function ourName(app: string): string {
  return `${OUR_PREFIX}${safeAppName(app)}`;
}

/**
 * Our names for an app, in order of preference: `appimage-keeper-<app>`, then the same with a short
 * hash of the full app name, for when another app's name reduces to the same safe name (`a+b`, `a_b`).
 */
export function ourNames(app: string): [string, string] {
  const hash = createHash('sha256').update(app).digest('hex').slice(0, 8);
  return [ourName(app), `${ourName(app)}-${hash}`];
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
