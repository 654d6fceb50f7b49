/**
 * The real-world corpus beside the repository (`../shared/corpus`): files made by other projects'
 * tool chains. Tests that read it skip with one clear line when it is absent, as on a fresh clone.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the corpus folder (it may not exist). */
export const CORPUS_DIR = resolve(fileURLToPath(new URL('../../../shared/corpus', import.meta.url)));

/** The path of a corpus file, or undefined when the corpus is absent. */
export function corpusFile(...parts: string[]): string | undefined {
  const path = join(CORPUS_DIR, ...parts);
  return existsSync(path) ? path : undefined;
}

/** The `skip` option for node:test: false when the corpus is here, else the one-line reason. */
export function skipWithoutCorpus(): string | false {
  return existsSync(CORPUS_DIR)
    ? false
    : `../shared/corpus is absent (${CORPUS_DIR}); real-world files not tested`;
}

/** A corpus folder and the `skip` option for the tests that read it (the folder may be absent alone). */
export function corpusFolder(name: string): { dir: string; skip: string | false } {
  const dir = join(CORPUS_DIR, name);
  return { dir, skip: corpusFile(name) ? false : skipWithoutCorpus() || `corpus folder ${dir} is absent` };
}
