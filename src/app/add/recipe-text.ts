/**
 * Generated recipes (`adopt`, `add`): their YAML text, and writing one as `apps/<name>/<name>.yml`
 * without ever replacing a file, validated as `validate` would (an invalid one is removed again).
 */
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import { loadRecipe, type ParsedRecipe } from '../../config/load-recipe.js';
import { RECIPE_SCHEMA_FILE } from '../../config/templates.js';
import type { Workspace } from '../../config/workspace.js';
import { KeeperError } from '../../core/errors.js';

/** A recipe to write, as plain YAML values. */
export interface RecipeDraft {
  name: string;
  strategy: Record<string, unknown>;
  /** true, `auto` or a control file URL. */
  zsync?: boolean | string | undefined;
  /** Files written beside the recipe (a resolver script), by name; executable. */
  files?: Record<string, string> | undefined;
}

/** Serialises a recipe draft; `comment` lines go above it (where it came from). */
export function recipeText(draft: RecipeDraft, comment: string[]): string {
  const values: Record<string, unknown> = { name: draft.name, strategy: draft.strategy };
  if (draft.zsync !== undefined) values.zsync = draft.zsync;
  const head = [
    `# yaml-language-server: $schema=../../${RECIPE_SCHEMA_FILE}`,
    ...comment.map((c) => `# ${c.replace(/[\r\n]+/g, ' ')}`),
  ];
  return `${head.join('\n')}\n${stringify(values, { lineWidth: 0 })}`;
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
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, recipeText(draft, comment), { flag: 'wx', mode: 0o644 });
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
