/**
 * The CLI built with the provenance test seam switched on (`scripts/build.mjs --test-hooks`), into
 * a temp dir and once per test process: only this build honours APPIMAGE_KEEPER_TEST_TRUSTED_ROOT.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './run-cli.js';

let built: Promise<{ dir: string; path: string }> | undefined;

/** Path of the test-hooks build (built on first use). */
export async function testHooksCli(): Promise<string> {
  built ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-test-hooks-'));
    const path = join(dir, 'appimage-keeper.mjs');
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        [join(REPO_ROOT, 'scripts', 'build.mjs'), '--test-hooks', `--outfile=${path}`],
        { cwd: REPO_ROOT, timeout: 60_000 },
        (err, _stdout, stderr) => (err ? reject(new Error(`test-hooks build failed: ${stderr}`)) : resolve()),
      );
    });
    return { dir, path };
  })();
  return (await built).path;
}

/** Removes the test-hooks build. */
export async function disposeTestHooksCli(): Promise<void> {
  if (built) await rm((await built).dir, { recursive: true, force: true });
  built = undefined;
}
