import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from './run-cli.js';

/** Runs a generated-doc script (`scripts/<name>`, e.g. `--check`) through tsx from the repository root. */
export function runDocScript(name: string, args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', name), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stderr: r.stderr };
}

/**
 * The two tests every generated doc has: the committed file matches a fresh render (`--check`), and
 * `--check` fails on a stale copy (`stale` edits it) and passes once that copy is regenerated.
 */
export function generatedDocTests(doc: {
  script: string;
  path: string;
  what: string;
  stale: (text: string) => string;
}): void {
  void test(`is up to date with the ${doc.what} (npx tsx scripts/${doc.script} --check)`, () => {
    const r = runDocScript(doc.script, ['--check']);
    assert.equal(r.status, 0, `${r.stderr}\nregenerate with: npx tsx scripts/${doc.script}`);
  });

  void test('--check fails on a stale file and passes once it is regenerated', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-'));
    try {
      const file = join(dir, doc.path.split('/').at(-1) ?? 'doc.md');
      await writeFile(file, doc.stale(await readFile(doc.path, 'utf8')));
      const stale = runDocScript(doc.script, ['--check', '--file', file]);
      assert.equal(stale.status, 1);
      assert.match(stale.stderr, /is out of date/);
      assert.equal(runDocScript(doc.script, ['--file', file]).status, 0);
      assert.equal(runDocScript(doc.script, ['--check', '--file', file]).status, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
