// Delta updates that work: `appimage-keeper --json update` against the sim rebuilds v2 from the
// installed v1 plus range requests, and reports what it reused and what it fetched. Each test gets
// its own home and app (own asset paths), so the sim's request log can be read per app.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { CliRun } from '../../helpers/run-cli.js';
import { FIXTURE_NAME, getsOf, rangeBytes, V1, V2, zsyncmake, type World, useZsyncSuite } from './harness.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { type UpdateAppJson, type UpdateJson } from '../../helpers/update-json.js';

const suite = useZsyncSuite();

/** A home with the recipe of `app` and v1 installed by a first `update` (which must not use zsync). */
async function installedV1(app: string, recipeExtra: string): Promise<World> {
  const world = await suite.world();
  await world.recipe(app, recipeExtra);
  const v1 = publishHubRelease(suite.sim, app, V1, suite.fx.v1);
  // A control file is available for v1 too: the first install still has nothing to seed from.
  suite.sim.putAsset(`${v1.path}.zsync`, await zsyncmake(suite.fx.v1, v1.assetName));
  const run = await world.update();
  const o = appOf(run, app);
  assert.equal(o.status, 'updated', run.stdout);
  assert.equal(o.method, 'plain', 'the first install uses the normal download');
  assert.equal(o.bytes_reused, 0);
  assert.equal(o.bytes_downloaded, suite.fx.v1.length);
  assert.deepEqual(getsOf(suite.sim, `${v1.path}.zsync`), [], 'no control file is fetched without a seed');
  return world;
}

/** v2 is installed, byte-identical to what was published, runs, and is recorded in state. */
async function assertInstalled(world: World, app: string, o: UpdateAppJson, body: Buffer): Promise<void> {
  assert.equal(o.status, 'updated', JSON.stringify(o));
  assert.equal(o.from_version, V1);
  assert.equal(o.to_version, V2);
  assert.ok(o.path);
  assert.equal(sha256(await readFile(o.path)), sha256(body), 'installed file equals the published v2');
  const printed = body === suite.fx.v1 ? `${FIXTURE_NAME} ${V1}` : `${FIXTURE_NAME} ${V2}`;
  assert.equal(await execInstalled(o.path), printed);
  const state = (await world.state()).apps[app]?.installed;
  assert.equal(state?.version, V2);
  assert.equal(state?.file, o.path);
  assert.equal(state?.sha256, sha256(body));
  assert.deepEqual(await world.temps(), [], 'no temp files left');
}

function zsyncOutcome(run: CliRun<UpdateJson>, app: string): UpdateAppJson {
  const o = appOf(run, app);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(o.method, 'zsync', JSON.stringify(o));
  assert.deepEqual(o.warnings, []);
  assert.equal(typeof o.bytes_reused, 'number');
  assert.equal(typeof o.bytes_downloaded, 'number');
  return o;
}

void describe('zsync delta updates through update', () => {
  void test('small change (zsync: true, relative URL): most bytes reused, few fetched', async () => {
    const app = 'small';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    const control = await zsyncmake(suite.fx.v2Small, v2.assetName);
    suite.sim.putAsset(`${v2.path}.zsync`, control);

    const run = await world.update();
    const o = zsyncOutcome(run, app);
    const size = suite.fx.v2Small.length;
    const reused = o.bytes_reused ?? 0;
    const downloaded = o.bytes_downloaded ?? 0;
    assert.ok(reused >= size * 0.95, `reused ${reused} of ${size}`);
    assert.ok(reused < size, 'something changed, so something was fetched');
    assert.ok(downloaded < size * 0.05, `downloaded ${downloaded} of ${size}`);
    // What the client asked for is exactly what it did not reuse, and its report counts it all.
    const ranges = getsOf(suite.sim, v2.path).map((g) => g.range);
    assert.ok(ranges.length > 0 && ranges.every((r) => r?.startsWith('bytes=')), 'only range requests');
    assert.equal(rangeBytes(ranges, size), size - reused);
    assert.ok(downloaded >= control.length + (size - reused));
    assert.equal(getsOf(suite.sim, `${v2.path}.zsync`).length, 1);
    assert.equal(run.json?.bytes_downloaded, downloaded);
    await assertInstalled(world, app, o, suite.fx.v2Small);
  });

  void test('large change (control file URL, absolute URL inside): nearly everything fetched', async () => {
    const app = 'large';
    const controlPath = `/zsync/${app}/latest.zsync`;
    const world = await installedV1(app, `zsync: ${suite.sim.url}${controlPath}`);
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Large);
    const control = await zsyncmake(suite.fx.v2Large, v2.url);
    suite.sim.putAsset(controlPath, control);

    const run = await world.update();
    const o = zsyncOutcome(run, app);
    const size = suite.fx.v2Large.length;
    const reused = o.bytes_reused ?? 0;
    const downloaded = o.bytes_downloaded ?? 0;
    assert.ok(reused < size * 0.05, `reused ${reused} of ${size}`);
    assert.equal(
      rangeBytes(
        getsOf(suite.sim, v2.path).map((g) => g.range),
        size,
      ),
      size - reused,
    );
    assert.ok(downloaded >= control.length + (size - reused), `downloaded ${downloaded}`);
    assert.equal(getsOf(suite.sim, controlPath).length, 1);
    assert.deepEqual(getsOf(suite.sim, `${v2.path}.zsync`), [], 'the named URL is used, not <url>.zsync');
    await assertInstalled(world, app, o, suite.fx.v2Large);
  });

  void test('identical content under a new tag: only the control file is fetched', async () => {
    const app = 'retag';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v1);
    const control = await zsyncmake(suite.fx.v1, v2.assetName);
    suite.sim.putAsset(`${v2.path}.zsync`, control);

    const run = await world.update();
    const o = zsyncOutcome(run, app);
    assert.equal(o.bytes_reused, suite.fx.v1.length);
    assert.equal(o.bytes_downloaded, control.length);
    assert.deepEqual(getsOf(suite.sim, v2.path), [], 'the asset itself is never requested');
    await assertInstalled(world, app, o, suite.fx.v1);
  });

  void test('human output reports the method, bytes fetched and bytes reused', async () => {
    const app = 'human';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v2Small, v2.assetName));

    const run = await world.updateHuman();
    assert.equal(run.code, 0, run.stderr);
    const line = run.stdout.split('\n').find((l) => l.startsWith('updated') && l.includes(app));
    assert.ok(line, run.stdout);
    assert.match(line, new RegExp(`${V1} → ${V2}`));
    assert.match(line, /\(\d+(\.\d)? kB, delta, \d+% reused\)/);
    assert.doesNotMatch(run.stdout + run.stderr, /warning/i);
    const state = (await world.state()).apps[app]?.installed;
    assert.equal(state?.version, V2);
    assert.equal(state?.sha256, sha256(suite.fx.v2Small));
    assert.equal(await execInstalled(state.file), `${FIXTURE_NAME} ${V2}`);
  });
});
