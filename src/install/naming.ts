import { appFileName, MAX_VERSION_IN_FILE_NAME } from '../core/file-names.js';

/** Makes a version string safe inside a file name: no separators, no leading dot, bounded length. */
export function safeVersion(version: string): string {
  const cleaned = version
    .trim()
    .replace(/[^A-Za-z0-9._+-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, MAX_VERSION_IN_FILE_NAME);
  return cleaned || 'unknown';
}

/** The stored file name for an app from `naming_format` ({name} in its file-name-safe form). */
export function renderFileName(format: string, name: string, version: string): string {
  return format.replaceAll('{name}', appFileName(name)).replaceAll('{version}', safeVersion(version));
}

/** Prefix of temp files for an app, so leftovers of an interrupted run can be found and removed. */
export function tempPrefix(name: string): string {
  return `.appimage-keeper-${appFileName(name)}-`;
}
