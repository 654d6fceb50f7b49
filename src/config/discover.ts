import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** A recipe file found on disk, before parsing. `id` is its file stem, used until `name` is known. */
export interface RecipeLocation {
  id: string;
  file: string;
  dir: string;
  layout: 'folder' | 'flat';
}

const YAML_EXT = /\.ya?ml$/;

/**
 * Finds recipes as `apps/<app>/<app>.yml` and `apps/<app>.yml` (`.yaml` too). Other YAML files
 * inside an app folder are not recipes (they may be data for a resolver script).
 */
export async function discoverRecipes(appsDir: string): Promise<RecipeLocation[]> {
  let entries;
  try {
    entries = await readdir(appsDir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const found: RecipeLocation[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isFile() && YAML_EXT.test(entry.name)) {
      found.push({
        id: entry.name.replace(YAML_EXT, ''),
        file: join(appsDir, entry.name),
        dir: appsDir,
        layout: 'flat',
      });
    } else if (entry.isDirectory()) {
      const dir = join(appsDir, entry.name);
      const inner = await readdir(dir).catch(() => [] as string[]);
      for (const ext of ['yml', 'yaml']) {
        const name = `${entry.name}.${ext}`;
        if (inner.includes(name))
          found.push({ id: entry.name, file: join(dir, name), dir, layout: 'folder' });
      }
    }
  }
  return found.sort((a, b) => a.id.localeCompare(b.id) || a.file.localeCompare(b.file));
}
