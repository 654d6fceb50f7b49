/**
 * Real fixture AppImages for the end-to-end suites, built with mksquashfs once per test process
 * for each distinct option set and kept in one scratch directory.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeAppImage, type MakeAppImageOptions } from '../../fixtures/make-appimage.js';

/** Options of one fixture AppImage (makeAppImage's, without the output file, name and version). */
export type FixtureOptions = Omit<MakeAppImageOptions, 'outFile' | 'name' | 'version'>;

const built = new Map<string, Promise<Buffer>>();
let scratch: Promise<string> | undefined;

/**
 * A real AppImage of `name` `version` whose runtime prints "<name> <version>"; the same options
 * return the same cached build (big padded ones too).
 */
export function fixtureAppImage(name: string, version: string, opts: FixtureOptions = {}): Promise<Buffer> {
  const key = JSON.stringify([name, version, opts]);
  let p = built.get(key);
  if (!p) {
    p = (async () => {
      scratch ??= mkdtemp(join(tmpdir(), 'ak-e2e-fixtures-'));
      const outFile = join(await scratch, `${built.size}-${name}-${version}.AppImage`);
      await makeAppImage({ ...opts, outFile, name, version });
      return readFile(outFile);
    })();
    built.set(key, p);
  }
  return p;
}

/** Removes the scratch directory and forgets every cached build. */
export async function disposeFixtureAppImages(): Promise<void> {
  if (scratch) await rm(await scratch, { recursive: true, force: true });
  scratch = undefined;
  built.clear();
}
