// A release asset we installed before whose digest or size changed under the same tag and name is a
// supply-chain signal: update refuses it (ASSET_REPLACED, exit 1, installed version kept), check
// reports it, `update --force APP` accepts it; moving tags such as `continuous` are updates as usual.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { publish, useUpdateSuite, type World } from './harness.js';

void describe('update: replaced release assets', () => {
  const suite = useUpdateSuite();

  async function installed(app: string, tag: string): Promise<World> {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe(app);
    await publish(suite.sim, app, tag, { assetName: `${app}-x86_64.AppImage` });
    const run = await w.update();
    assert.equal(appOf(run, app).status, 'updated', run.stdout + run.stderr);
    return w;
  }

  void test('same tag and name, new digest: refused, reported by check, accepted with --force', async () => {
    const app = 'swapped';
    const w = await installed(app, '1.0.0');
    const before = (await w.state()).apps[app]?.installed;
    // The publisher (or an attacker) re-uploads the asset of release 1.0.0 with other bytes.
    const other = await fixtureAppImage(app, '6.6.6');
    await publish(suite.sim, app, '1.0.0', { assetName: `${app}-x86_64.AppImage`, body: other });

    const run = await w.update();
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const a = appOf(run, app);
    assert.equal(a.status, 'failed');
    assert.equal(a.error?.code, 'ASSET_REPLACED');
    assert.match(
      a.error?.message ?? '',
      new RegExp(`was sha256 ${before?.sha256}, now sha256 ${sha256(other)}`),
    );
    assert.match(a.error?.message ?? '', /releases\/tag\/1\.0\.0/, 'names the release URL');
    const kept = (await w.state()).apps[app]?.installed;
    assert.equal(kept?.sha256, before?.sha256);
    assert.equal(sha256(await readFile(kept?.file ?? '')), before?.sha256);
    assert.equal(await execInstalled(kept?.file ?? ''), `${app} 1.0.0`);

    const checked = await w.cli(['--json', 'check']);
    assert.equal(checked.code, 1, checked.stdout);
    const c = (checked.json as { apps: { name: string; error: { code: string } | null }[] }).apps.find(
      (x) => x.name === app,
    );
    assert.equal(c?.error?.code, 'ASSET_REPLACED');

    const human = await w.cli(['update']);
    assert.equal(human.code, 1);
    assert.match(human.stdout, /update --force swapped/, 'the hint says how to accept it');

    const forced = await w.update(['--force', app]);
    assert.equal(forced.code, 0, forced.stdout + forced.stderr);
    assert.equal(appOf(forced, app).status, 'updated');
    assert.equal(await execInstalled((await w.state()).apps[app]?.installed?.file ?? ''), `${app} 6.6.6`);
    // Accepted once: the new digest is now the known one, so the next run is quiet.
    const again = await w.update();
    assert.equal(appOf(again, app).status, 'up_to_date');
  });

  void test('a moving tag such as continuous is an update, not an alarm', async () => {
    const app = 'rolling';
    const w = await installed(app, 'continuous');
    const next = await fixtureAppImage(app, '2.0.0');
    await publish(suite.sim, app, 'continuous', { assetName: `${app}-x86_64.AppImage`, body: next });
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(appOf(run, app).status, 'updated');
    assert.equal(await execInstalled((await w.state()).apps[app]?.installed?.file ?? ''), `${app} 2.0.0`);
  });
});
