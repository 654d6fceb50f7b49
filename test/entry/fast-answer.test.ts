/**
 * The npm bundle's launcher: `--version` and `completion SHELL` are answered without loading the
 * rest of the CLI, and what it answers is exactly what the full CLI prints for the same request.
 */
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { COMPLETION_FILES, fastAnswer } from '../../src/cli/fast-answer.js';
import { VERSION } from '../../src/core/version.js';
import { pkg } from '../../scripts/bundle-options.mjs';
import { REPO_ROOT, runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

void describe('fastAnswer', () => {
  const dir = join(REPO_ROOT, 'no-such-dir');

  void test('the version for each spelling, alone only', () => {
    for (const word of ['--version', '-V', 'version', '-v'])
      assert.equal(fastAnswer([word], dir), `${VERSION}\n`, word);
    assert.equal(fastAnswer(['--version', '--json'], dir), undefined);
    assert.equal(fastAnswer(['-v', 'list'], dir), undefined);
    assert.equal(fastAnswer([], dir), undefined);
  });

  void test('completion reads only the known shells, and falls back when the script is missing', async () => {
    const scripts = await mkdtemp(join(tmpdir(), 'ak-fast-'));
    try {
      await writeFile(join(scripts, COMPLETION_FILES.bash ?? ''), 'bash script\n');
      const url = scripts;
      assert.equal(fastAnswer(['completion', 'bash'], url), 'bash script\n');
      assert.equal(fastAnswer(['completion', 'zsh'], url), undefined, 'no zsh file: the full CLI answers');
      for (const odd of ['toString', '__proto__', '../bash', 'constructor'])
        assert.equal(fastAnswer(['completion', odd], url), undefined, odd);
      assert.equal(fastAnswer(['completion', 'bash', '--json'], url), undefined);
      // The standalone executable has no script files: completion is left to the CLI.
      assert.equal(fastAnswer(['completion', 'bash'], undefined), undefined);
      assert.equal(fastAnswer(['--version'], undefined), `${VERSION}\n`);
    } finally {
      await rm(scripts, { recursive: true, force: true });
    }
  });
});

// The built CLI carries package.json's version (the source alone says 0.0.0-dev).
const BUILT = (pkg as { version: string }).version;

void describe('the built launcher', () => {
  void test('prints what the full CLI prints', async () => {
    for (const shell of Object.keys(COMPLETION_FILES)) {
      const fast = await runCli(['completion', shell], { env: h.env });
      // A global flag sends the same request to the full CLI.
      const full = await runCli(['completion', shell, '--no-color'], { env: h.env });
      assert.equal(fast.code, 0);
      assert.equal(full.code, 0);
      assert.ok(fast.stdout.length > 1000, `${shell}: a whole script`);
      assert.equal(fast.stdout, full.stdout, `completion ${shell}`);
    }
    for (const word of ['--version', '-V', 'version', '-v']) {
      const fast = await runCli([word], { env: h.env });
      const full = await runCli(['--no-color', word], { env: h.env });
      assert.deepEqual([fast.code, fast.stdout, fast.stderr], [0, `${BUILT}\n`, ''], word);
      assert.deepEqual([full.code, full.stdout], [0, fast.stdout], `--no-color ${word}`);
    }
  });

  void test('answers --version and completion without the rest of the CLI, which other commands load', async () => {
    // A copy of the build without the CLI chunk: what still works never loaded it.
    const copy = await mkdtemp(join(tmpdir(), 'ak-launcher-'));
    try {
      await cp(join(REPO_ROOT, 'dist'), copy, { recursive: true });
      await rm(join(copy, 'chunks', 'cli.mjs'));
      const cliPath = join(copy, 'appimage-keeper.cjs');
      const version = await runCli(['--version'], { env: h.env, cliPath });
      assert.deepEqual([version.code, version.stdout], [0, `${BUILT}\n`]);
      const completion = await runCli(['completion', 'fish'], { env: h.env, cliPath });
      assert.equal(completion.code, 0);
      assert.match(completion.stdout, /complete -c appimage-keeper/);
      // Every other command line needs the CLI chunk.
      for (const args of [['list'], ['list', '--help'], ['info', 'x']]) {
        const full = await runCli(args, { env: h.env, cliPath });
        assert.notEqual(full.code, 0, args.join(' '));
        assert.match(full.stderr, /chunks\/cli\.mjs/, args.join(' '));
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
