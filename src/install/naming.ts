import { MAX_VERSION_IN_FILE_NAME, TEMP_PREFIX, TEMP_SEPARATOR } from '../core/file-names.js';

/** Makes a version string safe inside a file name: no separators, no leading dot, bounded length. */
export function safeVersion(version: string): string {
  const cleaned = version
    .trim()
    .replace(/[^A-Za-z0-9._+-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, MAX_VERSION_IN_FILE_NAME);
  return cleaned || 'unknown';
}

/** The stored file name for an app from `naming_format`. */
export function renderFileName(format: string, name: string, version: string): string {
  return format.replaceAll('{name}', name).replaceAll('{version}', safeVersion(version));
}

/** Prefix of an app's temp files (`.appimage-keeper~<app>~`), unambiguous since `~` is not allowed in names. */
export function tempPrefix(name: string): string {
  return `${TEMP_PREFIX}${name}${TEMP_SEPARATOR}`;
}

/**
 * Temp names of earlier versions (`.appimage-keeper-<app>-<12 hex>.part`, `…-zsync-<12 hex>`,
 * `…-rollback-<pid>`), matched exactly so that `big`'s pattern never matches `big-x`'s files.
 */
export function legacyTempPattern(name: string): RegExp {
  const escaped = name.replace(/[.+]/g, (c) => `\\${c}`);
  return new RegExp(`^\\.appimage-keeper-${escaped}-(?:(?:zsync-)?[0-9a-f]{12}(?:\\.part)?|rollback-\\d+)$`);
}
