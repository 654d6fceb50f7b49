import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GLOBAL_FIELDS } from '../../src/config/fields.js';
import { RECIPE_FIELDS, STRATEGY_KEYS } from '../../src/config/recipe-fields.js';
import { DOC_PATH, renderConfigDocs } from '../../scripts/config-docs.js';
import { generatedDocTests } from '../helpers/doc-script.js';

void describe('docs/configuration.md', () => {
  generatedDocTests({
    script: 'config-docs.ts',
    path: DOC_PATH,
    what: 'field tables',
    stale: (text) => `${text}\nhand edit\n`,
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
