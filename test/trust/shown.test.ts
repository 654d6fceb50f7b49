import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shown } from '../../src/trust/provenance/errors.js';

void test('values from attestations are escaped before they reach a message', () => {
  assert.equal(shown('evil\u001b[2J\u202eowner'), 'evil\\u001b[2J\\u202eowner');
  assert.equal(shown('x'.repeat(300)).length, 201);
  assert.equal(shown(undefined), '(none)');
});
