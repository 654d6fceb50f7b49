// `npm test`'s report: marks while tests run, then each failure with its error, then the totals
// last, with the full TAP in a file. Run on a folder of three tiny tests (one fails, one skips).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const SAMPLE = `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
void describe('sample', () => {
  void test('passes', () => undefined);
  void test('fails on purpose', () => assert.equal(1 + 1, 3));
  void test('skips', { skip: 'no tool here' }, () => undefined);
});
`;

void describe('the test command report', () => {
  void test('failures come after the marks, totals come last, the full TAP goes to a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-report-'));
    try {
      await writeFile(join(dir, 'sample.test.ts'), SAMPLE);
      const env = { ...process.env };
      // Inside node:test this is set; a nested runner must not think it is a child of ours.
      delete env.NODE_TEST_CONTEXT;
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs'), dir], {
        cwd: ROOT,
        env,
        encoding: 'utf8',
      });
      assert.equal(r.status, 1, r.stdout + r.stderr);
      const lines = r.stdout.trimEnd().split('\n');
      assert.equal(lines.at(-1), '1 passed, 1 failed, 1 skipped', r.stdout);
      assert.ok(lines.length < 40, r.stdout);
      const failure = lines.findIndex((l) => l === '✖ fails on purpose');
      const totals = lines.findIndex((l) => l.startsWith('# tests '));
      assert.ok(failure > 0 && failure < totals, r.stdout);
      assert.match(r.stdout, /2 !== 3/);
      assert.doesNotMatch(r.stdout, /node:internal/);
      const log = /full TAP output goes to (\S+)/.exec(r.stderr)?.[1] ?? '';
      assert.match(await readFile(log, 'utf8'), /not ok \d+ - fails on purpose/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
