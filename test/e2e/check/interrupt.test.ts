/** Ctrl-C during `check`: exit 130, the app that was waiting for its answer is `interrupted`. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startCli, waitFor } from '../update/harness.js';
import { cliEnv, hubRecipe, publishHub, requestsTo, useE2e, type CheckJson } from './helpers.js';

void describe('check: interrupted', () => {
  const e = useE2e();

  void test('SIGINT while a release request is pending: exit 130, status interrupted', async () => {
    const h = await e.home();
    publishHub(e.sim, 'int/slow', 'v1', ['S-x86_64.AppImage']);
    e.sim.fault('/repos/int/slow/releases/latest', { latencyMs: 20_000 });
    await h.writeRecipe('slow', hubRecipe(e.sim, 'slow', 'int/slow'));
    e.sim.clearRequests();
    const bg = startCli(['--json', 'check'], cliEnv(h));
    await waitFor('the release request', () =>
      Promise.resolve(requestsTo(e.sim, '/repos/int/slow/').length > 0 ? true : undefined),
    );
    bg.child.kill('SIGINT');
    const done = await bg.done;
    assert.equal(done.code, 130, done.stdout + done.stderr);
    const json = JSON.parse(done.stdout) as CheckJson & { summary: { interrupted?: number } };
    assert.equal(json.apps[0]?.status, 'interrupted');
    assert.equal(json.apps[0]?.error, null);
    assert.equal(json.summary.interrupted, 1);
    assert.equal(json.summary.failed, 0);
  });
});
