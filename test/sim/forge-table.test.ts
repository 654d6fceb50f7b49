/**
 * The simulator's forges come from one table (sim/forges.ts), and it has one for every forge the
 * source registry routes to: each publishes a release the real source then resolves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SIM_FORGES } from '../../sim/forges.js';
import { startSim, type Sim, type SimReleaseAsset } from '../../sim/index.js';
import type { AppSettings } from '../../src/config/types.js';
import { forges } from '../../src/sources/forges.js';
import { sourceFor } from '../../src/sources/index.js';
import type { ForgeKind } from '../../src/sources/source.js';
import { forge, makeDeps, makeSettings } from '../sources/support.js';

interface Published {
  repository: string;
  settings: Partial<AppSettings>;
}

// Keyed by ForgeKind: a forge added to the registry fails to compile here until the sim has it.
const publishOn: Record<ForgeKind, (sim: Sim, asset: SimReleaseAsset) => Published> = {
  hub: (sim, asset) => {
    sim.hub.setLatest('team', 'app', { tag: 'v1-hub', assets: [asset] });
    return {
      repository: `${sim.url}/team/app`,
      settings: { hub_release_web_url: sim.url, hub_release_api_url: sim.hubApiUrl },
    };
  },
  lab: (sim, asset) => {
    sim.lab.setLatest('group/app', { tag: 'v1-lab', assets: [asset] });
    return { repository: `${sim.url}/group/app`, settings: { lab_release_web_url: sim.url } };
  },
  gitea: (sim, asset) => {
    sim.gitea.setLatest('team', 'app', { tag: 'v1-gitea', assets: [asset] });
    return { repository: `${sim.url}/team/app`, settings: {} };
  },
};

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
    for (const [kind, publish] of Object.entries(publishOn)) {
      const { repository, settings } = publish(sim, { name: 'app-x86_64.AppImage', url });
      const source = sourceFor(makeSettings(forge(repository), settings));
      assert.equal(source.kind, kind);
      const outcome = await source.resolve(makeDeps());
      assert.equal(outcome.kind, 'resolved', kind);
      if (outcome.kind === 'resolved') assert.equal(outcome.resolution.version, `v1-${kind}`);
    }
  });
});
