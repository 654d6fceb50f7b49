// `check` marks held apps and `check --exit-code` answers "is there something to install?" with
// exit 10, as `git diff --exit-code` does; plain `check` keeps exit 0.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CheckJson } from '../check/helpers.js';
import { publish, useUpdateSuite } from './harness.js';

type HeldJson = CheckJson & { apps: { held?: boolean }[] };

void describe('check: held apps and --exit-code', () => {
  const suite = useUpdateSuite();

  void test('exit 10 only with --exit-code and only for an app update would install', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('ce-app');
    await publish(suite.sim, 'ce-app', '1.0.0');
    assert.equal((await w.update()).code, 0);

    const upToDate = await w.cli(['check', '--exit-code']);
    assert.equal(upToDate.code, 0, upToDate.stderr);

    await publish(suite.sim, 'ce-app', '2.0.0');
    const plain = await w.cli(['check']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /available\s+ce-app 1\.0\.0 → 2\.0\.0/);
    assert.doesNotMatch(plain.stdout, /\(held\)/);
    const flagged = await w.cli(['check', '--exit-code']);
    assert.equal(flagged.code, 10, flagged.stdout + flagged.stderr);
    const json = await w.cli(['--json', 'check', '--exit-code']);
    assert.equal(json.code, 10);
    assert.equal((json.json as HeldJson | undefined)?.apps[0]?.held, undefined);

    // v2 installed, then rolled back: v1 is held and check says so.
    assert.equal((await w.update()).code, 0);
    const rolled = await w.cli(['rollback', 'ce-app']);
    assert.equal(rolled.code, 0, rolled.stderr);
    const held = await w.cli(['check']);
    assert.equal(held.code, 0, held.stderr);
    assert.match(held.stdout, /available\s+ce-app 1\.0\.0 → 2\.0\.0 \(held\)/);
    const heldJson = await w.cli(['--json', 'check', '--exit-code']);
    assert.equal(heldJson.code, 0, 'a held app is not an update `update` would install');
    assert.equal((heldJson.json as HeldJson | undefined)?.apps[0]?.held, true);
  });
});
