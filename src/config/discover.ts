import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { childPath } from '../core/child-path.js';

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
  // Without symbolic links a folder tree has no loops, so folders need no stat of their own until
  // the first link to a folder: from then on every folder's identity is kept, those already walked
  // included (most `apps/` folders have no link, and this saves a stat per recipe).
  const walkedUnseen: string[] = [];
  let linked = false;
  const remember = (path: string, st: Stats | undefined): void => {
    if (linked && st) seenDirs.add(`${st.dev}:${st.ino}`);
    else walkedUnseen.push(path);
  };
  const startLinked = (): void => {
    linked = true;
    for (const dir of walkedUnseen.splice(0)) {
      const st = statOrUndefined(dir);
      if (st) seenDirs.add(`${st.dev}:${st.ino}`);
    }
  };
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if (depth === 0 && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
      skipped.push({ path: dir, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const name = entry.name;
      if (name.startsWith('.')) continue;
      const path = childPath(dir, name);
      // Links are followed: what they lead to decides. Other entries are what readdir says.
      let st: Pick<Stats, 'isDirectory' | 'isFile'> | undefined = entry;
      if (entry.isSymbolicLink()) {
        const target = statOrUndefined(path);
        if (target?.isDirectory() && !linked) startLinked();
        st = target;
      }
      if (!st) {
        if (YAML_EXT.test(name)) skipped.push({ path, reason: 'broken link or unreadable' });
        continue;
      }
      if (st.isDirectory()) {
        const own = linked ? (st === entry ? statOrUndefined(path) : (st as Stats)) : undefined;
        if (linked && !own) continue;
        if (own && seenDirs.has(`${own.dev}:${own.ino}`)) {
          skipped.push({ path, reason: 'folder already searched (symlink loop)' });
          continue;
        }
        if (depth + 1 > MAX_RECIPE_DEPTH) {
          skipped.push({ path, reason: `deeper than ${MAX_RECIPE_DEPTH} folders below apps/` });
          continue;
        }
        remember(path, own);
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
  walkedUnseen.push(appsDir);
  walk(appsDir, 0);
  // Each path made relative once, not twice per comparison (joined paths start with the folder).
  const prefix = join(appsDir, '/');
  const sorted = found
    .map((loc) => ({
      key: loc.file.startsWith(prefix) ? loc.file.slice(prefix.length) : relative(appsDir, loc.file),
      loc,
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((k) => k.loc);
  return { recipes: sorted, skipped };
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
