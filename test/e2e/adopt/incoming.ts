import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimWorld } from '../../helpers/sim-world.js';

/**
 * An AppImage as a user has it before `adopt`: `<home>/downloads/<name>`, executable, with `body`'s
 * bytes (or a copy of the file at that path). Returns its path.
 */
export async function incoming(w: SimWorld, name: string, body: Buffer | string): Promise<string> {
  const dir = join(w.home.root, 'downloads');
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  if (typeof body === 'string') await copyFile(body, file);
  else await writeFile(file, body, { mode: 0o755 });
  return file;
}
