/**
 * The simulator's forges come from one table (sim/forges.ts), and it has one for every forge the
 * source registry routes to: each publishes a release the real source then resolves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SIM_FORGES } from '../../sim/forges.js';
import { startSim, type Sim } from '../../sim/index.js';
import { forges } from '../../src/sources/forges.js';
import { sourceFor } from '../../src/sources/index.js';
import { FORGE_CASES } from '../sources/forge-cases.js';
import { forge, makeDeps, makeSettings } from '../sources/support.js';

void describe('the simulator forge table', () => {
  let sim: Sim;
  before(async () => {
    sim = await startSim();
  });
  after(() => sim.stop());

  void test('sim/forges.ts has a forge for every ForgeKind of src/sources/forges.ts', () => {
    assert.deepEqual(
      Object.keys(SIM_FORGES).sort(),
      Object.keys(forges).sort(),
      'add the missing forge to SIM_FORGES in sim/forges.ts',
    );
    for (const kind of Object.keys(SIM_FORGES)) assert.ok(kind in sim, `the Sim object has no "${kind}"`);
  });

  void test('each forge resolves the release its simulated forge publishes', async () => {
    const url = sim.putAsset('/dl/app-x86_64.AppImage', Buffer.from('app'));
    for (const [kind, { publish }] of Object.entries(FORGE_CASES)) {
      const { repository, settings, tag } = publish(sim, { name: 'app-x86_64.AppImage', url });
      const source = sourceFor(makeSettings(forge(repository), settings));
      assert.equal(source.kind, kind);
      const outcome = await source.resolve(makeDeps());
      assert.equal(outcome.kind, 'resolved', kind);
      if (outcome.kind === 'resolved') assert.equal(outcome.resolution.version, tag);
    }
  });
});
