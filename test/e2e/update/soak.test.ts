// The kill soak, bounded: 8 `kill -9` trials at random points of a four-app update (bench/soak.ts
// runs 50). No corrupt install, no lost previous version, and every rerun converges.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runKillSoak } from '../../helpers/kill-soak.js';
import { useSim } from '../../helpers/sim-suite.js';
import { disposeFixtureAppImages } from '../../helpers/fixture-appimages.js';
import { after } from 'node:test';

void describe('kill -9 soak (8 trials)', () => {
  const sim = useSim('nothing');
  after(disposeFixtureAppImages);

  void test('0 corrupt installs, 0 lost previous versions, every rerun converges', async () => {
    const r = await runKillSoak(sim, { trials: 8, seed: 7 });
    assert.deepEqual(r.problems, []);
    assert.equal(r.total.trials, 8);
    assert.equal(r.total.corruptInstalls, 0);
    assert.equal(r.total.lostPrevious, 0);
    assert.equal(r.total.notConverged, 0);
    assert.ok(r.total.killed >= 4, `most trials are really killed (${r.total.killed} of 8)`);
  });
});
