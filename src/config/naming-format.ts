import {
  MAX_APP_NAME_BYTES,
  MAX_FILE_NAME_BYTES,
  MAX_VERSION_IN_FILE_NAME,
  RESERVED_FILE_PREFIX,
} from '../core/file-names.js';

/**
 * Problems of a `naming_format` that only its rendered file names reveal: a name that could start
 * with the prefix of our own temp files and kept versions (cleanup would delete the installed app),
 * or one longer than a file system accepts.
 */
export function namingFormatProblems(format: string): string[] {
  const problems: string[] = [];
  const first = format.search(/\{(name|version)\}/);
  const literal = first === -1 ? format : format.slice(0, first);
  // App names and versions never start with ".", so only the literal start can begin the prefix;
  // when it is a part of the prefix, the placeholder after it could complete it.
  if (
    literal.startsWith(RESERVED_FILE_PREFIX) ||
    (literal && first !== -1 && RESERVED_FILE_PREFIX.startsWith(literal))
  ) {
    problems.push(
      `file names starting with "${RESERVED_FILE_PREFIX}" are reserved for appimage-keeper's temporary files and kept versions, and this format can produce one`,
    );
  }
  const longest = format
    .replaceAll('{name}', 'n'.repeat(MAX_APP_NAME_BYTES))
    .replaceAll('{version}', 'v'.repeat(MAX_VERSION_IN_FILE_NAME));
  const bytes = Buffer.byteLength(longest);
  if (bytes > MAX_FILE_NAME_BYTES) {
    problems.push(
      `file names can reach ${bytes} bytes (with a ${MAX_APP_NAME_BYTES}-byte name and a ${MAX_VERSION_IN_FILE_NAME}-character version); the limit is ${MAX_FILE_NAME_BYTES}`,
    );
  }
  return problems;
}

/** Every problem of a `naming_format` value (placeholders, path characters, the names it renders). */
export function namingFormatIssues(format: string): string[] {
  const issues: string[] = [];
  const unknown = [...format.matchAll(/\{([^}]*)\}/g)]
    .map((m) => m[1])
    .filter((p) => p !== 'name' && p !== 'version');
  if (unknown.length) issues.push(`unknown placeholder {${unknown[0]}}; only {name} and {version} exist`);
  if (/[/\0]/.test(format)) issues.push('must not contain "/": it names a file inside storage_dir');
  if (format === '.' || format === '..') issues.push('must name a file');
  issues.push(...namingFormatProblems(format));
  return issues;
}
