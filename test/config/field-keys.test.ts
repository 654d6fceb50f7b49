import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  directStrategySchema,
  forgeStrategySchema,
  scriptStrategySchema,
} from '../../src/config/field-kit.js';
import { CONFIG_KEYS } from '../../src/config/fields.js';
import { RECIPE_KEYS, STRATEGY_KEYS } from '../../src/config/recipe-fields.js';
import { configSchema, recipeSchema } from '../../src/config/schema.js';

// The key lists are read at start-up without zod; the schemas are built from the same tables. These
// keep the two in step when a field is added to one and not the other.
void test('the key lists read without zod are exactly the schemas keys, in order', () => {
  assert.deepEqual(CONFIG_KEYS, Object.keys(configSchema.shape));
  assert.deepEqual(RECIPE_KEYS, Object.keys(recipeSchema.shape));
  assert.deepEqual(STRATEGY_KEYS, {
    forge: Object.keys(forgeStrategySchema.shape),
    direct: Object.keys(directStrategySchema.shape),
    script: Object.keys(scriptStrategySchema.shape),
  });
});
