/**
 * Generated recipes (`adopt`, `add`): their YAML text, and writing one as `apps/<name>/<name>.yml`
 * without ever replacing a file, validated as `validate` would (an invalid one is removed again).
 */
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadRecipe, type ParsedRecipe } from '../../config/load-recipe.js';
import { compileGlob } from '../../config/recipe-glob.js';
import { compileRecipeRegex, isRegexProblem } from '../../config/recipe-regex.js';
import { RECIPE_SCHEMA_FILE } from '../../config/templates.js';
import { redactUrl, urlFieldProblem } from '../../config/url-field.js';
import type { Workspace } from '../../config/workspace.js';
import { escapeControlChar, firstControlChar } from '../../core/control-chars.js';
import { KeeperError } from '../../core/errors.js';

/** A recipe to write, as plain YAML values. */
export interface RecipeDraft {
  name: string;
  strategy: Record<string, unknown>;
  /** true, `auto` or a control file URL. */
  zsync?: boolean | string | undefined;
  /** Files written beside the recipe (a resolver script), by name; executable. */
  files?: Record<string, string> | undefined;
  /** The release asset the recipe is said to select: its asset_match must match that name. */
  selects?: string | undefined;
}

/**
 * Serialises a recipe draft; `comment` lines go above it (where it came from). Values come from
 * forges, AppImages and the command line, so nothing unsafe is written: a value with a control
 * character, a URL field that `validate` would refuse (credentials, control characters) and an
 * asset_match that does not select the asset it was made for are RECIPE_VALUE_UNSAFE; comments
 * are kept with control characters escaped and URL credentials masked.
 */
export function recipeText(draft: RecipeDraft, comment: string[]): string {
  const values: Record<string, unknown> = { name: draft.name, strategy: draft.strategy };
  if (draft.zsync !== undefined) values.zsync = draft.zsync;
  checkValues(values);
  const head = [
    `# yaml-language-server: $schema=../../${RECIPE_SCHEMA_FILE}`,
    ...comment.map((c) => `# ${safeComment(c)}`),
  ];
  const text = `${head.join('\n')}\n${stringify(values, { lineWidth: 0 })}`;
  if (draft.selects !== undefined) checkSelects(text, draft.selects);
  return text;
}

const URL_FIELDS = new Set(['url', 'repository', 'zsync']);

function unsafe(message: string): KeeperError {
  return new KeeperError('RECIPE_VALUE_UNSAFE', message, {
    hint: 'nothing was written; write the recipe yourself (appimage-keeper init --app NAME)',
  });
}

function checkValues(values: Record<string, unknown>, prefix = ''): void {
  for (const [key, value] of Object.entries(values)) {
    const field = `${prefix}${key}`;
    if (value !== null && typeof value === 'object') {
      checkValues(value as Record<string, unknown>, `${field}.`);
      continue;
    }
    if (typeof value !== 'string') continue;
    const problem = URL_FIELDS.has(key) && value !== 'auto' ? urlFieldProblem(value) : undefined;
    if (problem) throw unsafe(`${field} ${redactUrl(value)} ${problem.message}`);
    const at = firstControlChar(value);
    if (at !== -1) {
      throw unsafe(
        `${field} ${escapeText(value)} holds a control character (${escapeControlChar(value.charAt(at))})`,
      );
    }
  }
}

// The pattern as the recipe will be read back, against the one asset name it was made for.
function checkSelects(text: string, asset: string): void {
  const parsed = parse(text) as { strategy?: { asset_match?: unknown; asset_match_regex?: unknown } };
  const glob = parsed.strategy?.asset_match;
  const regex = parsed.strategy?.asset_match_regex;
  if (typeof regex === 'string') {
    const re = compileRecipeRegex(regex);
    if (!isRegexProblem(re) && re.matches(asset) && (glob === undefined || typeof glob === 'string')) {
      if (glob === undefined || compileGlob(glob, { dot: true })(asset)) return;
    }
    throw unsafe(`asset_match_regex ${escapeText(regex)} would not select the asset ${escapeText(asset)}`);
  }
  if (typeof glob === 'string' && compileGlob(glob, { dot: true })(asset)) return;
  throw unsafe(`asset_match ${escapeText(String(glob))} would not select the asset ${escapeText(asset)}`);
}

function escapeText(s: string): string {
  return [...s].map((c) => (firstControlChar(c) === -1 ? c : escapeControlChar(c))).join('');
}

function safeComment(line: string): string {
  return escapeText(line.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1***@'));
}

/** A written recipe: its file, folder and parsed values. */
export interface WrittenRecipe {
  file: string;
  dir: string;
  parsed: ParsedRecipe;
  /** Removes the recipe again (used when what follows it fails). */
  undo(): Promise<void>;
}

/** Writes a new recipe; APP_EXISTS when the app or its file exists; CONFIG_INVALID (removed) when invalid. */
export async function writeNewRecipe(
  ws: Workspace,
  draft: RecipeDraft,
  comment: string[],
): Promise<WrittenRecipe> {
  const name = draft.name;
  const taken = (): KeeperError =>
    new KeeperError('APP_EXISTS', `an app named ${name} already has a recipe`, {
      hint: 'pass --name NAME to use another name',
    });
  if (ws.apps.some((a) => a.name.toLowerCase() === name.toLowerCase())) throw taken();
  const dir = join(ws.paths.appsDir, name);
  const file = join(dir, `${name}.yml`);
  const text = recipeText(draft, comment);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, text, { flag: 'wx', mode: 0o644 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw taken();
    throw err;
  }
  const extra: string[] = [];
  const undo = async (): Promise<void> => {
    for (const f of [file, ...extra]) await rm(f, { force: true });
    await rmdir(dir).catch(() => undefined);
  };
  try {
    for (const [fileName, text] of Object.entries(draft.files ?? {})) {
      const path = join(dir, basename(fileName));
      await writeFile(path, text, { flag: 'wx', mode: 0o755 });
      extra.push(path);
    }
    const parsed = await loadRecipe({ id: name, file, dir, layout: 'folder' });
    return { file, dir, parsed, undo };
  } catch (err) {
    await undo();
    throw err;
  }
}
