import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { escapeControlChar, firstControlChar } from '../core/control-chars.js';
import type { ConfigIssue } from '../core/errors.js';
import { appFileName, MAX_APP_NAME_BYTES } from '../core/file-names.js';
import { issueAt, type YamlFile } from './yaml-file.js';

/** App names are one safe path component: they become file, symlink and desktop-file names. */
export const APP_NAME_RE = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,${MAX_APP_NAME_BYTES - 1}}$`);

/**
 * Globs of only these characters, and not longer than this, always compile (no brackets, braces or
 * parentheses to balance; far below picomatch's length limit): most recipes' globs, which then do
 * not load picomatch at all.
 */
export const PLAIN_GLOB = /^[A-Za-z0-9._*?+/ -]{1,1000}$/;

/** Checks a glob compiles; returns the error text or undefined. */
export async function globError(glob: string): Promise<string | undefined> {
  if (PLAIN_GLOB.test(glob)) return undefined;
  const { default: picomatch } = await import('picomatch');
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Semantic checks zod cannot express, positioned in the recipe file. */
export async function checkRecipe(
  y: YamlFile,
  data: Record<string, unknown>,
  recipeDir: string,
): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  issues.push(...nameIssues(y, data.name));
  const strategy = (data.strategy ?? {}) as Record<string, unknown>;
  if (strategy.strategy === 'forge') {
    for (const key of ['asset_match', 'inner_asset_match'] as const) {
      const v = strategy[key];
      const err = typeof v === 'string' ? await globError(v) : undefined;
      if (err) issues.push(issueAt(y, ['strategy', key], `strategy.${key}: invalid glob: ${err}`));
    }
    if (typeof strategy.asset_match_regex === 'string') {
      // RE2 (re2js) is most of the config layer's code: loaded only for a recipe that has a regex.
      const { compileRecipeRegex, isRegexProblem } = await import('./recipe-regex.js');
      const re = compileRecipeRegex(strategy.asset_match_regex);
      if (isRegexProblem(re))
        issues.push(
          issueAt(y, ['strategy', 'asset_match_regex'], `strategy.asset_match_regex: ${re.message}`, {
            offset: re.offset,
            hint: 'RE2 syntax, as in Rust regex; the pattern must match the whole asset name',
          }),
        );
    }
    if (
      typeof data.inner_asset_match === 'string' &&
      typeof strategy.inner_asset_match === 'string' &&
      data.inner_asset_match !== strategy.inner_asset_match
    ) {
      issues.push(
        issueAt(
          y,
          ['inner_asset_match'],
          'inner_asset_match is set both here and in strategy, with different values',
        ),
      );
    }
  }
  if (typeof data.inner_asset_match === 'string') {
    const err = await globError(data.inner_asset_match);
    if (err) issues.push(issueAt(y, ['inner_asset_match'], `inner_asset_match: invalid glob: ${err}`));
  }
  if (data.zsync === 'auto' && strategy.strategy !== undefined && strategy.strategy !== 'forge') {
    issues.push(
      issueAt(y, ['zsync'], 'zsync: "auto" needs the forge strategy', {
        hint: 'use true (<download URL>.zsync) or the control file URL',
      }),
    );
  }
  const zsyncSet = data.zsync !== undefined && data.zsync !== false;
  if (zsyncSet && (data.delta === 'off' || data.delta === 'blockmap')) {
    issues.push(
      issueAt(
        y,
        ['delta'],
        `delta: ${data.delta} turns the zsync setting off; remove zsync or set delta to auto or zsync`,
      ),
    );
  }
  issues.push(...desktopValueIssues(y, data));
  if (strategy.strategy === 'script' && typeof strategy.script_path === 'string') {
    const err = await scriptPathError(strategy.script_path, recipeDir);
    if (err) issues.push(issueAt(y, ['strategy', 'script_path'], `strategy.script_path: ${err}`));
  }
  return issues;
}

/**
 * Any text names an app (spaces, other scripts, a leading `_`): file names use its safe form
 * (appFileName). It must still be one line of printable text, bounded, and not read as a path:
 * no `/`, and not `.` or `..`. appFileName makes even such a name safe (state on disk is not
 * checked here); refusing it says early that the recipe is wrong.
 */
function nameIssues(y: YamlFile, name: unknown): ConfigIssue[] {
  if (typeof name !== 'string') return [];
  if (name.trim() === '') return [issueAt(y, ['name'], 'name: must not be empty')];
  const at = firstControlChar(name);
  if (at !== -1)
    return [
      issueAt(y, ['name'], `name: contains the control character ${escapeControlChar(name.charAt(at))}`, {
        offset: at,
      }),
    ];
  if (name !== name.trim())
    return [issueAt(y, ['name'], 'name: starts or ends with spaces', { hint: `use "${name.trim()}"` })];
  if (Buffer.byteLength(name) > MAX_APP_NAME_BYTES)
    return [issueAt(y, ['name'], `name: longer than ${MAX_APP_NAME_BYTES} bytes`)];
  const slash = name.indexOf('/');
  if (slash !== -1)
    return [
      issueAt(y, ['name'], 'name: contains "/"; an app name is one name, not a path', {
        offset: slash,
        hint: `use "${appFileName(name)}"`,
      }),
    ];
  if (/^\.+$/.test(name)) return [issueAt(y, ['name'], `name: "${name}" is not an app name`)];
  return [];
}

// Desktop entries are line-based text: a control character in a value breaks the file.
function desktopValueIssues(y: YamlFile, data: Record<string, unknown>): ConfigIssue[] {
  const values: [PropertyKey[], unknown][] = [];
  if (Array.isArray(data.desktop_exec_args))
    data.desktop_exec_args.forEach((v, i) => values.push([['desktop_exec_args', i], v]));
  if (data.desktop_env && typeof data.desktop_env === 'object')
    for (const [k, v] of Object.entries(data.desktop_env)) values.push([['desktop_env', k], v]);
  const issues: ConfigIssue[] = [];
  for (const [path, value] of values) {
    if (typeof value !== 'string') continue;
    const at = firstControlChar(value);
    if (at === -1) continue;
    issues.push(
      issueAt(
        y,
        path,
        `${path.map(String).join('.')}: contains the control character ${escapeControlChar(value.charAt(at))}, which a desktop entry cannot hold`,
        { offset: at },
      ),
    );
  }
  return issues;
}

/** The absolute script path for a recipe (relative to the recipe's folder). */
export function resolveScriptPath(scriptPath: string, recipeDir: string): string {
  return isAbsolute(scriptPath) ? scriptPath : resolve(recipeDir, scriptPath);
}

// A script outside the recipe's folder (`../shared.sh`, an absolute path) is the user's own file,
// as fp-appimage-updater allows; it must exist and be a regular file (through links too).
async function scriptPathError(scriptPath: string, recipeDir: string): Promise<string | undefined> {
  const full = resolveScriptPath(scriptPath, recipeDir);
  try {
    const st = await stat(full);
    if (!st.isFile()) return `"${scriptPath}" is not a regular file (${full})`;
  } catch {
    return `"${scriptPath}" does not exist (looked for ${full})`;
  }
  return undefined;
}
