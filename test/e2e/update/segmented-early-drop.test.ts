// Regression test: when the server drops the connection right after the headers of the first
// (probe) response of a segmented download, the probe body can be destroyed while the segmented
// downloader is still setting up, before the body pump reads it. Before dc26f53 the pump then
// waited for events that never came, and the CLI exited 13 ("unsettled top-level await") with
// nothing on stdout and the temp file left behind. The race is timing dependent (a busy
// file-system thread makes it likely), so several runs go in parallel.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import { makeWorld, type World } from './harness.js';
import { appOf } from '../../helpers/json-output.js';
import { tempFiles } from '../../helpers/temp-files.js';

const RUNS = 4;
const SIZE = 9 * 1024 * 1024 + 4321;

void describe('update: segmented download dropped right after the headers', () => {
  let sim: Sim;
  const worlds: World[] = [];

  before(async () => {
    sim = await startSim();
    const path = '/dl/early/early-2.0.0-x86_64.AppImage';
    const url = sim.putAsset(path, { size: SIZE, seed: 5 });
    sim.hub.setLatest('e2e', 'early', {
      tag: '2.0.0',
      assets: [{ name: 'early-2.0.0-x86_64.AppImage', url }],
    });
    sim.fault(path, { dropAfterBytes: 1000, methods: ['GET'] });
    // Two clean big downloads in the same run keep the file-system thread busy, which widens the
    // window between the probe's headers and the first read of its body.
    for (const name of ['busy1', 'busy2']) {
      const u = sim.putAsset(`/dl/${name}/${name}-2.0.0-x86_64.AppImage`, { size: SIZE, seed: 6 });
      sim.hub.setLatest('e2e', name, {
        tag: '2.0.0',
        assets: [{ name: `${name}-2.0.0-x86_64.AppImage`, url: u }],
      });
    }
    for (let i = 0; i < RUNS; i++) {
      const w = await makeWorld(sim);
      w.env.UV_THREADPOOL_SIZE = '1';
      await Promise.all(['busy1', 'busy2', 'early'].map((a) => w.forgeRecipe(a)));
      worlds.push(w);
    }
  });
  after(async () => {
    await Promise.all(worlds.map((w) => w.cleanup()));
    await sim.stop();
  });

  void test('every run fails with a download error and leaves no temp file', async () => {
    const runs = await Promise.all(worlds.map((w) => w.update([], 60_000)));
    for (const [i, run] of runs.entries()) {
      assert.equal(run.code, 1, run.stderr);
      assert.match(appOf(run, 'early').error?.code ?? '', /^DOWNLOAD_/);
      assert.deepEqual(await tempFiles(worlds[i]?.storageDir ?? ''), []);
    }
  });
});
