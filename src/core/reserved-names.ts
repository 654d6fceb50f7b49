/**
 * Names we reserve inside storage_dir. Every file or folder appimage-keeper creates there besides
 * the installed AppImages starts with RESERVED_PREFIX, so `naming_format` must never render a name
 * starting with it (config validation refuses such a format).
 */
export const RESERVED_PREFIX = '.appimage-keeper';

/**
 * Start of every temp file name: `.appimage-keeper~<app>~<pid>.<boot>.<random>.<kind>`. `~` cannot
 * occur in an app name, so one app's prefix never matches another's (`big~` vs `big-x~`), and the
 * owner's pid and boot let cleanup skip files a live process is still writing.
 */
export const TEMP_PREFIX = `${RESERVED_PREFIX}~`;

/** Separates the app name from the owner in a temp file name; not allowed in app names. */
export const TEMP_SEPARATOR = '~';
