/**
 * Forgejo reports size 0 for external assets: 0 means unknown, so the download is bounded by
 * max_asset_size and checked against the digest, instead of failing "expected 0 bytes".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { sha256 } from '../../helpers/sha256.js';
import { useUpdateSuite } from '../update/harness.js';

void describe('a forge asset of size 0', () => {
  const suite = useUpdateSuite();

  void test('installs, with the digest checked', async () => {
    const w = await suite.world();
    await w.forgeRecipe('zero-size');
    const body = await fixtureAppImage('zero-size', '1.0.0');
    const name = 'zero-size-1.0.0-x86_64.AppImage';
    const url = suite.sim.putAsset(`/e2e/zero-size/releases/download/1.0.0/${name}`, body);
    suite.sim.hub.setLatest('e2e', 'zero-size', {
      tag: '1.0.0',
      assets: [{ name, url, size: 0, digest: `sha256:${sha256(body)}` }],
    });
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.json?.apps[0]?.status, 'updated');
  });

  void test('a body that does not match the digest still fails', async () => {
    const w = await suite.world();
    await w.forgeRecipe('zero-bad');
    const body = await fixtureAppImage('zero-bad', '1.0.0');
    const name = 'zero-bad-1.0.0-x86_64.AppImage';
    const url = suite.sim.putAsset(`/e2e/zero-bad/releases/download/1.0.0/${name}`, body);
    suite.sim.hub.setLatest('e2e', 'zero-bad', {
      tag: '1.0.0',
      assets: [{ name, url, size: 0, digest: `sha256:${'0'.repeat(64)}` }],
    });
    const run = await w.update();
    assert.equal(run.code, 1);
    assert.equal(run.json?.apps[0]?.status, 'failed');
    assert.match(run.json?.apps[0]?.error?.code ?? '', /SHA256|DIGEST|CHECKSUM/);
  });
});
