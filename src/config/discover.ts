import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';

/** A recipe file found on disk, before parsing. `id` is its file stem, used until `name` is known. */
export interface RecipeLocation {
  id: string;
  file: string;
  dir: string;
  /** `folder` when the recipe sits in a sub-folder of `apps/` (which may hold its scripts). */
  layout: 'folder' | 'flat';
}

/** What discovery passed over on purpose, so `validate` and `doctor` can say so. */
export interface SkippedEntry {
  path: string;
  reason: string;
}

/** Recipes found below `apps/`, and what was not read. */
export interface Discovery {
  recipes: RecipeLocation[];
  skipped: SkippedEntry[];
}

const YAML_EXT = /\.ya?ml$/i;
/** Deeper folders are not searched: a bound on a symlink loop or a mistaken `apps` link to `/`. */
export const MAX_RECIPE_DEPTH = 8;
/** More recipe files than this is surely a mistake (a link to a large tree); the rest are reported. */
export const MAX_RECIPE_FILES = 2000;

/**
 * Finds every `*.yml`/`*.yaml` below `apps/` (as fp-appimage-updater reads `apps/**\/*.yml`):
 * `apps/x.yml`, `apps/x/x.yml`, `apps/hayase/main.yml`, `apps/group/sub/y.yaml`. Names starting
 * with `.` are skipped (editor and VCS files); symlinks are followed within the depth bound.
 */
export async function discoverRecipeFiles(appsDir: string): Promise<Discovery> {
  const found: RecipeLocation[] = [];
  const skipped: SkippedEntry[] = [];
  const seenDirs = new Set<string>();
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch (err) {
      if (depth === 0 && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
      skipped.push({ path: dir, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    for (const name of entries.sort()) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const st = await stat(path).catch(() => undefined);
      if (!st) {
        if (YAML_EXT.test(name)) skipped.push({ path, reason: 'broken link or unreadable' });
        continue;
      }
      if (st.isDirectory()) {
        const key = `${st.dev}:${st.ino}`;
        if (seenDirs.has(key)) {
          skipped.push({ path, reason: 'folder already searched (symlink loop)' });
          continue;
        }
        if (depth + 1 > MAX_RECIPE_DEPTH) {
          skipped.push({ path, reason: `deeper than ${MAX_RECIPE_DEPTH} folders below apps/` });
          continue;
        }
        seenDirs.add(key);
        await walk(path, depth + 1);
      } else if (YAML_EXT.test(name)) {
        if (!st.isFile()) {
          skipped.push({ path, reason: 'not a regular file' });
        } else if (found.length >= MAX_RECIPE_FILES) {
          skipped.push({ path, reason: `more than ${MAX_RECIPE_FILES} recipe files` });
        } else {
          found.push({
            id: basename(name).replace(YAML_EXT, ''),
            file: path,
            dir,
            layout: dir === appsDir ? 'flat' : 'folder',
          });
        }
      }
    }
  };
  const top = await stat(appsDir).catch(() => undefined);
  if (top) seenDirs.add(`${top.dev}:${top.ino}`);
  await walk(appsDir, 0);
  found.sort((a, b) => relative(appsDir, a.file).localeCompare(relative(appsDir, b.file)));
  return { recipes: found, skipped };
}

/** The recipe files below `apps/` (see discoverRecipeFiles). */
export async function discoverRecipes(appsDir: string): Promise<RecipeLocation[]> {
  return (await discoverRecipeFiles(appsDir)).recipes;
}
