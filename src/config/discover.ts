import { readdirSync, statSync, type Stats } from 'node:fs';
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
 * The walk is synchronous: one readdir and one stat per entry, in order, cost microseconds each,
 * where awaiting each through the thread pool made most of `list`'s start-up idle.
 */
export function discoverRecipeFiles(appsDir: string): Discovery {
  const found: RecipeLocation[] = [];
  const skipped: SkippedEntry[] = [];
  const seenDirs = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch (err) {
      if (depth === 0 && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
      skipped.push({ path: dir, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    for (const name of entries.sort()) {
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      const st = statOrUndefined(path);
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
        walk(path, depth + 1);
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
  const top = statOrUndefined(appsDir);
  if (top) seenDirs.add(`${top.dev}:${top.ino}`);
  walk(appsDir, 0);
  found.sort((a, b) => relative(appsDir, a.file).localeCompare(relative(appsDir, b.file)));
  return { recipes: found, skipped };
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The recipe files below `apps/` (see discoverRecipeFiles). */
export function discoverRecipes(appsDir: string): RecipeLocation[] {
  return discoverRecipeFiles(appsDir).recipes;
}
