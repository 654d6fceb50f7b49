import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { GLOBAL_FIELDS } from '../../src/config/fields.js';
import { RECIPE_FIELDS, STRATEGY_KEYS } from '../../src/config/recipe-fields.js';
import { DOC_PATH, renderConfigDocs } from '../../scripts/config-docs.js';
import { runDocScript } from '../helpers/doc-script.js';

function runDocs(args: string[]): { status: number | null; stderr: string } {
  return runDocScript('config-docs.ts', args);
}

void describe('docs/configuration.md', () => {
  void test('is up to date with the field tables (npx tsx scripts/config-docs.ts --check)', () => {
    const r = runDocs(['--check']);
    assert.equal(r.status, 0, `${r.stderr}\nregenerate with: npx tsx scripts/config-docs.ts`);
  });

  void test('--check fails on a stale file and passes once it is regenerated', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-'));
    try {
      const file = join(dir, 'configuration.md');
      await writeFile(file, `${await readFile(DOC_PATH, 'utf8')}\nhand edit\n`);
      const stale = runDocs(['--check', '--file', file]);
      assert.equal(stale.status, 1);
      assert.match(stale.stderr, /is out of date/);
      assert.equal(runDocs(['--file', file]).status, 0);
      assert.equal(runDocs(['--check', '--file', file]).status, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  void test('documents every global field, alias, recipe field and strategy field', async () => {
    const text = await renderConfigDocs();
    for (const f of GLOBAL_FIELDS) {
      assert.ok(text.includes(`| \`${f.key}\``), f.key);
      for (const a of f.aliases) assert.ok(text.includes(`\`${a}\``), a);
    }
    for (const f of RECIPE_FIELDS) assert.ok(text.includes(`| \`${f.key}\``), f.key);
    for (const keys of Object.values(STRATEGY_KEYS))
      for (const k of keys) assert.ok(text.includes(`\`strategy.${k}\``), `strategy.${k}`);
    for (const heading of [
      'File locations',
      'The hub token',
      'mean "not set"',
      'Path expansion',
      'Recipe layouts',
    ])
      assert.ok(text.includes(heading), heading);
  });
});
