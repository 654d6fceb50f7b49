/**
 * A hostile forge answers a release request with 15 MiB of nested brackets (under the 16 MiB body
 * cap): the app fails with its own code, the other apps are checked as usual.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { app, check, cliEnv, hubRecipe, publishHub, useE2e } from './helpers.js';

void describe('check: hostile release JSON', () => {
  const e = useE2e();

  void test('deep nesting under the body cap is refused before parsing; other apps are unaffected', async () => {
    const h = await e.home();
    publishHub(e.sim, 'hostile/deep', 'v1', ['D-x86_64.AppImage']);
    publishHub(e.sim, 'hostile/fine', 'v1', ['F-x86_64.AppImage']);
    const depth = 15 * 512 * 1024;
    e.sim.fault('/repos/hostile/deep/releases/latest', {
      body: Buffer.from('['.repeat(depth) + ']'.repeat(depth)),
      contentType: 'application/json',
    });
    await h.writeRecipe('deep', hubRecipe(e.sim, 'deep', 'hostile/deep'));
    await h.writeRecipe('fine', hubRecipe(e.sim, 'fine', 'hostile/fine'));
    const r = await check(cliEnv(h));
    assert.equal(r.code, 1, r.stderr);
    assert.equal(app(r, 'deep').status, 'failed');
    assert.equal(app(r, 'deep').error?.code, 'HTTP_JSON_TOO_DEEP');
    assert.equal(app(r, 'fine').status, 'update_available');
  });
});
