// node:crypto is loaded (process.getBuiltinModule, synchronous) only for the rare name that needs
// a hash: `list` and `validate` name every app and would otherwise load it at start-up for nothing.

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

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/**
 * The one rule that turns an app name into a file-name component ({name}, symlink, temp files,
 * desktop ids). Names of letters, digits, `.`, `_`, `+`, `-` starting with a letter or digit stay
 * as they are; otherwise accents are dropped (é → e), every other run of characters (spaces,
 * other scripts, `/`) becomes `_`, and what does not start with a letter or digit is trimmed, so
 * the result never starts with `.` or `-`. A name with nothing left is `app-<hash>`.
 */
export function appFileName(name: string): string {
  if (SAFE_NAME.test(name) && Buffer.byteLength(name) <= MAX_APP_NAME_BYTES) return name;
  const ascii = name.normalize('NFKD').replace(/\p{M}+/gu, '');
  const cleaned = ascii
    .replace(/[^A-Za-z0-9._+-]+/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/_+$/, '')
    .slice(0, MAX_APP_NAME_BYTES);
  return (
    cleaned ||
    `app-${process.getBuiltinModule('node:crypto').createHash('sha256').update(name).digest('hex').slice(0, 8)}`
  );
}
