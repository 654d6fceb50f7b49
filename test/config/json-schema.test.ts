// The JSON Schema editors read (`schema recipe`): every strategy field has a description, so an
// editor's hover says what `strategy.asset_match` means instead of showing nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonSchema } from '../../src/config/schema.js';

interface Branch {
  properties?: Record<string, { description?: string; const?: string }>;
}

void describe('JSON Schema of a recipe', () => {
  void test('each strategy kind describes every one of its fields', () => {
    const schema = jsonSchema('recipe') as { properties: { strategy: { oneOf: Branch[] } } };
    const branches = schema.properties.strategy.oneOf;
    assert.ok(branches.length >= 3, JSON.stringify(schema.properties.strategy));
    for (const branch of branches) {
      const props = branch.properties ?? {};
      const kind = props.strategy?.const ?? '?';
      for (const [key, prop] of Object.entries(props)) {
        assert.ok(prop.description?.trim(), `strategy.${key} (${kind}) has no description`);
      }
    }
  });
});
