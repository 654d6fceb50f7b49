/**
 * scripts/test-files.mjs, the test runner's two decisions: which test files need the built CLI
 * (so `npm run test:fast` leaves them out) and when dist/ is older than its sources (so the runner
 * rebuilds before running them). Real files in a temp tree; mtimes set explicitly.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildReason, staleReason } from '../../scripts/test-files.mjs';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ak-test-files-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes `text` at root/rel (folders created) and returns its path. */
// Spelt through H so this file's own source does not look like it imports those helpers.
const H = 'helpers';

async function put(rel: string, text = '', mtimeSec?: number): Promise<string> {
  const path = join(root, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  if (mtimeSec !== undefined) await utimes(path, mtimeSec, mtimeSec);
  return path;
}

void describe('which test files need the build', () => {
  void it('a file that runs the built CLI through a helper, directly or through a harness or another helper', async () => {
    const direct = await put(
      'test/cli/a.test.ts',
      `import { REPO_ROOT, runCli } from '../${H}/run-cli.js';\nvoid runCli([], { env: {} });\n`,
    );
    assert.equal(buildReason(direct), 'imports helpers/run-cli');
    await put('test/e2e/x/harness.ts', `import { createSimWorld } from '../../${H}/sim-world.js';\n`);
    const viaHarness = await put('test/e2e/x/b.test.ts', "import { world } from './harness.js';\n");
    assert.equal(buildReason(viaHarness), 'imports helpers/sim-world (through harness.ts)');
    await put(
      'test/helpers/new-world.ts',
      `import { runCli } from './run-cli.js';\nexport const go = runCli;\n`,
    );
    const viaHelper = await put('test/app/f.test.ts', `import { go } from '../${H}/new-world.js';\n`);
    assert.equal(buildReason(viaHelper), 'imports helpers/run-cli (through ../helpers/new-world.ts)');
    const typeOnly = await put('test/app/g.test.ts', `import type { World } from '../${H}/new-world.js';\n`);
    assert.equal(buildReason(typeOnly), undefined);
    const pty = await put('test/render/c.test.ts', `import {\n  runCliInPty,\n} from '../${H}/pty.js';\n`);
    assert.equal(buildReason(pty), 'imports helpers/pty');
    const dist = await put(
      'test/cli/d.test.ts',
      `const man = join(REPO_ROOT, ${"'dist'"}, 'appimage-keeper.1');\n`,
    );
    assert.equal(buildReason(dist), "reads the repository's dist/");
  });

  void it('not a file that only takes a path or a type from those helpers, or runs the CLI in-process', async () => {
    const paths = await put(
      'test/core/e.test.ts',
      [
        "import { REPO_ROOT } from '../helpers/run-cli.js';",
        "import type { CliRun } from '../helpers/run-cli.js';",
        "import { runInProcess } from '../helpers/run-in-process.js';",
        "import { tmpHome } from '../helpers/tmp-home.js';",
        "const zipped = 'dist/App.AppImage';",
        '',
      ].join('\n'),
    );
    assert.equal(buildReason(paths), undefined);
  });
});

void describe('when dist/ is stale', () => {
  const outputs = ['dist/appimage-keeper.cjs', 'dist/chunks/cli.mjs', 'dist/appimage-keeper.1'];

  void it('missing, older than a file deep in src/, older than a build script; fresh otherwise', async () => {
    await rm(join(root, 'src'), { recursive: true, force: true });
    await rm(join(root, 'dist'), { recursive: true, force: true });
    await put('src/app/add/deep.ts', '', 1_000);
    await put('package.json', '{}', 1_000);
    await put('scripts/build.mjs', '', 1_000);
    assert.equal(staleReason(root), 'dist/appimage-keeper.cjs is missing');
    for (const out of outputs) await put(out, '', 2_000);
    assert.equal(staleReason(root), undefined);
    await put('src/app/add/deep.ts', '', 3_000);
    assert.equal(staleReason(root), 'src/app/add/deep.ts is newer than dist/');
    for (const out of outputs) await put(out, '', 4_000);
    await put('scripts/build.mjs', '', 5_000);
    assert.equal(staleReason(root), 'scripts/build.mjs is newer than dist/');
    // The oldest output dates the build: one file left from an earlier build is stale too.
    await put('dist/chunks/cli.mjs', '', 4_500);
    for (const out of ['dist/appimage-keeper.cjs', 'dist/appimage-keeper.1']) await put(out, '', 6_000);
    assert.equal(staleReason(root), 'scripts/build.mjs is newer than dist/');
  });
});
