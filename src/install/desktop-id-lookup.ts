import { lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Sub-directory levels searched below `applications/` (the spec allows any; real trees use one or two). */
const MAX_DEPTH = 4;

async function present(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function find(dir: string, rest: string, depth: number): Promise<string | undefined> {
  const direct = join(dir, `${rest}.desktop`);
  if (await present(direct)) return direct;
  if (depth >= MAX_DEPTH) return undefined;
  for (let i = rest.indexOf('-'); i > 0; i = rest.indexOf('-', i + 1)) {
    const sub = join(dir, rest.slice(0, i));
    if (!(await isDir(sub))) continue;
    const found = await find(sub, rest.slice(i + 1), depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * The file that provides desktop id `id` below an `applications` directory, if any. The spec maps
 * `applications/kde/foo.desktop` to the id `kde-foo`, so every split of the id at a `-` that names an
 * existing sub-directory is searched too. `id` must already be a safe id (no `/`, no leading `.`).
 */
export function findDesktopId(applicationsDir: string, id: string): Promise<string | undefined> {
  return find(applicationsDir, id, 0);
}
