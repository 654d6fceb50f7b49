import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shown } from '../../src/trust/provenance/errors.js';
import { embeddedRoot } from '../../src/trust/provenance/trusted-root.js';

void test('values from attestations are capped before they reach a message', () => {
  assert.equal(shown('x'.repeat(300)).length, 201);
  assert.equal(shown('short'), 'short');
  assert.equal(shown(undefined), '(none)');
});

void test('the public-good root comes from the @sigstore/tuf seed: Fulcio CAs, Rekor and CT logs', () => {
  const root = embeddedRoot('public-good', {});
  assert.ok(root.root.certificateAuthorities.length > 0);
  assert.ok(root.root.tlogs.length > 0 && root.root.ctlogs.length > 0);
  assert.deepEqual(root.options, { tlogThreshold: 1, ctlogThreshold: 1, timestampThreshold: 1 });
  const github = embeddedRoot('github', {});
  assert.deepEqual(github.options, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 1 });
});

void test('outside a test-hooks build the test root variable is ignored', () => {
  const env = { APPIMAGE_KEEPER_TEST_TRUSTED_ROOT: '/nonexistent/trusted_root.json' };
  assert.equal(embeddedRoot('github', env).root.certificateAuthorities.length, 1);
});
