import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import safeRegex from 'safe-regex2';
import type { ConfigIssue } from '../core/errors.js';
import { issueAt, type YamlFile } from './yaml-file.js';

/** App names are one safe path component: they become file, symlink and desktop-file names. */
export const APP_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/;

/** Checks a glob compiles; returns the error text or undefined. */
export function globError(glob: string): string | undefined {
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Checks a regex compiles and is not prone to catastrophic backtracking. */
export function regexError(source: string): string | undefined {
  try {
    new RegExp(source);
  } catch (err) {
    return (err as Error).message.replace(/^Invalid regular expression: /, '');
  }
  if (!safeRegex(source)) return 'may backtrack catastrophically (nested quantifiers); simplify it';
  return undefined;
}

/** Semantic checks zod cannot express, positioned in the recipe file. */
export async function checkRecipe(
  y: YamlFile,
  data: Record<string, unknown>,
  recipeDir: string,
): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  const name = data.name;
  if (typeof name === 'string' && !APP_NAME_RE.test(name)) {
    issues.push(
      issueAt(y, ['name'], `name: "${name}" is not a safe file name`, {
        hint: 'use letters, digits, ".", "_", "+" or "-", starting with a letter or digit',
      }),
    );
  }
  const strategy = (data.strategy ?? {}) as Record<string, unknown>;
  if (strategy.strategy === 'forge') {
    if (strategy.asset_match === undefined && strategy.asset_match_regex === undefined) {
      issues.push(
        issueAt(y, ['strategy'], 'strategy: forge needs "asset_match" or "asset_match_regex"', {
          hint: 'e.g. asset_match: "*x86_64.AppImage"',
        }),
      );
    }
    for (const key of ['asset_match', 'inner_asset_match'] as const) {
      const v = strategy[key];
      const err = typeof v === 'string' ? globError(v) : undefined;
      if (err) issues.push(issueAt(y, ['strategy', key], `strategy.${key}: invalid glob: ${err}`));
    }
    if (typeof strategy.asset_match_regex === 'string') {
      const err = regexError(strategy.asset_match_regex);
      if (err)
        issues.push(issueAt(y, ['strategy', 'asset_match_regex'], `strategy.asset_match_regex: ${err}`));
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
    const err = globError(data.inner_asset_match);
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
  if (strategy.strategy === 'script' && typeof strategy.script_path === 'string') {
    const err = await scriptPathError(strategy.script_path, recipeDir);
    if (err) issues.push(issueAt(y, ['strategy', 'script_path'], `strategy.script_path: ${err}`));
  }
  return issues;
}

/** The absolute script path for a recipe (relative to the recipe's folder). */
export function resolveScriptPath(scriptPath: string, recipeDir: string): string {
  return isAbsolute(scriptPath) ? scriptPath : resolve(recipeDir, scriptPath);
}

async function scriptPathError(scriptPath: string, recipeDir: string): Promise<string | undefined> {
  const full = resolveScriptPath(scriptPath, recipeDir);
  const rel = relative(recipeDir, full);
  if (rel.startsWith('..') || isAbsolute(rel))
    return `"${scriptPath}" is outside the recipe's folder ${recipeDir}`;
  try {
    const st = await stat(full);
    if (!st.isFile()) return `"${scriptPath}" is not a file`;
    const real = await realpath(full);
    const realDir = await realpath(recipeDir);
    const realRel = relative(realDir, real);
    if (realRel.startsWith('..') || isAbsolute(realRel))
      return `"${scriptPath}" links outside the recipe's folder`;
  } catch {
    return `"${scriptPath}" does not exist (looked for ${full})`;
  }
  return undefined;
}
