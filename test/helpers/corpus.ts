import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './run-cli.js';

/** The shared real-world corpus beside the repository (`../shared/corpus`), as in CI. */
export const CORPUS_DIR = join(REPO_ROOT, '..', 'shared', 'corpus');

/**
 * A corpus folder, or a one-line skip reason when it is absent (a fresh clone has no corpus):
 * pass the result's `skip` to `describe`/`test`.
 */
export function corpusFolder(name: string): { dir: string; skip: string | false } {
  const dir = join(CORPUS_DIR, name);
  return { dir, skip: existsSync(dir) ? false : `corpus folder ${dir} is absent` };
}
