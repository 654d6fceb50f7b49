/**
 * Names appimage-keeper reserves for itself. Every file and folder it creates in `storage_dir`
 * for its own use (temp downloads, kept previous versions) starts with this prefix, and cleanup
 * deletes what starts with it, so no user-chosen file name may.
 */
export const RESERVED_FILE_PREFIX = '.appimage-keeper';

/**
 * Start of every temp file name: `.appimage-keeper~<app>~<pid>.<boot>.<random>.<kind>`. `~` cannot
 * occur in an app name, so one app's prefix never matches another's (`big~` vs `big-x~`), and the
 * owner's pid and boot let cleanup skip files a live process is still writing.
 */
export const TEMP_PREFIX = `${RESERVED_FILE_PREFIX}~`;

/** Separates the app name from the owner in a temp file name; not allowed in app names. */
export const TEMP_SEPARATOR = '~';

/** Longest file name (one path component) Linux file systems accept, in bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/** `{version}` in a file name is cut to this many characters. */
export const MAX_VERSION_IN_FILE_NAME = 64;

/** Longest app name, in bytes. */
export const MAX_APP_NAME_BYTES = 100;

/** True when a file name starts with the reserved prefix. */
export function isReservedFileName(name: string): boolean {
  return name.startsWith(RESERVED_FILE_PREFIX);
}
