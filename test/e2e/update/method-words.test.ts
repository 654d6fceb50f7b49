// The update result line says how the file came in words: `full download` or `N connections`
// (delta wording is covered by the e2e-delta suites); JSON keeps `method`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { BIG_PAD_BYTES, publish, useUpdateSuite } from './harness.js';

void describe('update: the result line explains the download method', () => {
  const suite = useUpdateSuite();

  void test('a small file is a full download, a big one names its connections', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('mw-small');
    await w.forgeRecipe('mw-big');
    await publish(suite.sim, 'mw-small', '1.0.0');
    await publish(suite.sim, 'mw-big', '1.0.0', {
      body: await fixtureAppImage('mw-big', '1.0.0', { padBytes: BIG_PAD_BYTES }),
    });
    const run = await w.cli(['update', 'mw-small']);
    assert.equal(run.code, 0, run.stderr);
    const small = run.stdout.split('\n').find((l) => l.startsWith('updated'));
    assert.match(small ?? '', /\(\d+(\.\d)? kB, full download\)/, run.stdout);
    const big = await w.cli(['update', 'mw-big']);
    assert.equal(big.code, 0, big.stderr);
    const line = big.stdout.split('\n').find((l) => l.startsWith('updated'));
    assert.match(line ?? '', /\(\d+(\.\d)? MB, [2-9] connections\)/, big.stdout);
    assert.doesNotMatch(run.stdout + big.stdout, /plain|segmented/);
    const json = await w.update(['--force', 'mw-big']);
    assert.equal(json.json?.apps[0]?.method, 'segmented');
  });
});
