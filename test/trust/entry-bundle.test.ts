import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryBundle } from '../../src/trust/provenance/fetch-attestations.js';
import { createHttpSettings } from '../../src/http/settings.js';

void test('an attestation entry without a bundle or a usable http(s) bundle_url is PROVENANCE_INVALID', async () => {
  for (const bundle_url of [
    null,
    'file:///etc/passwd',
    'https://blob.example/\u001b[2J',
    `https://b.example/${'x'.repeat(3000)}`,
  ]) {
    await assert.rejects(
      entryBundle(createHttpSettings(), { bundle: null, bundle_url }, undefined),
      { code: 'PROVENANCE_INVALID' },
      String(bundle_url),
    );
  }
  const inline = { mediaType: 'x' };
  assert.deepEqual(await entryBundle(createHttpSettings(), { bundle: inline }, undefined), {
    bundle: inline,
    requests: 0,
  });
});
