// Delta updates that cannot work: every zsync failure falls back to the normal download with a
// visible warning and still installs exactly the published v2; `zsync: auto` uses the release's
// `.zsync` asset when there is one; and the usual verification still judges a zsync result.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { CliRun } from '../../helpers/run-cli.js';
import {
  FIXTURE_NAME,
  getsOf,
  rangeBytes,
  V1,
  V2,
  withWrongSha1,
  zsyncmake,
  type World,
  useZsyncSuite,
} from './harness.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { type UpdateAppJson, type UpdateJson } from '../../helpers/update-json.js';

const suite = useZsyncSuite();

/** A home with the recipe of `app` and v1 installed by a plain first `update`. */
async function installedV1(app: string, recipeExtra: string): Promise<World> {
  const world = await suite.world();
  await world.recipe(app, recipeExtra);
  publishHubRelease(suite.sim, app, V1, suite.fx.v1);
  const run = await world.update();
  const o = appOf(run, app);
  assert.equal(o.status, 'updated', run.stdout);
  assert.equal(o.method, 'plain');
  // `auto` with a v1 that has no .zsync asset: nothing to seed from, so no warning either.
  assert.deepEqual(o.warnings, []);
  return world;
}

/** The app ended on the published v2 through a full download, with exactly one zsync warning. */
async function assertFellBack(
  world: World,
  run: CliRun<UpdateJson>,
  app: string,
  warning: RegExp,
): Promise<UpdateAppJson> {
  const o = appOf(run, app);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(o.status, 'updated', JSON.stringify(o));
  assert.equal(o.method, 'plain', 'the normal download took over');
  assert.equal(o.bytes_reused, 0);
  assert.ok((o.bytes_downloaded ?? 0) >= suite.fx.v2Small.length);
  assert.equal(o.warnings.length, 1, JSON.stringify(o.warnings));
  assert.match(o.warnings[0] ?? '', warning);
  await assertV2Installed(world, app, o);
  return o;
}

async function assertV2Installed(world: World, app: string, o: UpdateAppJson): Promise<void> {
  assert.equal(o.to_version, V2);
  assert.ok(o.path);
  assert.equal(
    sha256(await readFile(o.path)),
    sha256(suite.fx.v2Small),
    'installed file equals the published v2',
  );
  assert.equal(await execInstalled(o.path), `${FIXTURE_NAME} ${V2}`);
  assert.equal((await world.state()).apps[app]?.installed?.version, V2);
  assert.deepEqual(await world.temps(), [], 'no temp files left');
}

/** The update failed and v1 is still installed, runnable and recorded. */
async function assertV1Kept(world: World, run: CliRun<UpdateJson>, app: string, code: string): Promise<void> {
  const o = appOf(run, app);
  assert.equal(run.code, 1);
  assert.equal(o.status, 'failed', JSON.stringify(o));
  assert.equal(o.error?.code, code, JSON.stringify(o.error));
  const installed = (await world.state()).apps[app]?.installed;
  assert.equal(installed?.version, V1);
  assert.equal(sha256(await readFile(installed.file)), sha256(suite.fx.v1));
  assert.equal(await execInstalled(installed.file), `${FIXTURE_NAME} ${V1}`);
  assert.deepEqual(await world.temps(), [], 'no temp files left');
}

/** v2 was rebuilt by zsync (control file and range requests only), not fetched in full. */
function assertZsyncTried(controlPath: string, assetPath: string): void {
  assert.equal(getsOf(suite.sim, controlPath).length, 1);
  const gets = getsOf(suite.sim, assetPath);
  assert.ok(gets.length > 0, 'blocks were fetched');
  assert.ok(
    gets.every((g) => g.range?.startsWith('bytes=')),
    'no full download after a zsync result was rejected',
  );
}

void describe('zsync fallbacks', () => {
  void test('control file SHA-1 does not match the result: full download, warning', async () => {
    const app = 'badsha';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    const control = withWrongSha1(await zsyncmake(suite.fx.v2Small, v2.assetName));
    suite.sim.putAsset(`${v2.path}.zsync`, control);

    const run = await world.update();
    const o = await assertFellBack(
      world,
      run,
      app,
      /zsync failed \(ZSYNC_CHECKSUM: .*SHA-1.*\); fell back to a full download/,
    );
    const gets = getsOf(suite.sim, v2.path);
    const ranges = gets.filter((g) => g.range).map((g) => g.range);
    assert.ok(ranges.length > 0, 'zsync fetched the changed blocks first');
    assert.equal(gets.filter((g) => !g.range).length, 1, 'then the whole file was downloaded once');
    // The report counts what the failed attempt cost as well as the full download.
    const wasted = control.length + rangeBytes(ranges, suite.fx.v2Small.length);
    assert.ok(
      (o.bytes_downloaded ?? 0) >= suite.fx.v2Small.length + wasted,
      `bytes_downloaded ${o.bytes_downloaded} < ${suite.fx.v2Small.length} + ${wasted}`,
    );
    assert.equal(run.json?.bytes_downloaded, o.bytes_downloaded);
  });

  void test('missing control file (404): full download, warning', async () => {
    const app = 'nocontrol';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);

    const run = await world.update();
    await assertFellBack(world, run, app, /zsync failed \(ZSYNC_CONTROL_HTTP: .*404.*\); fell back/);
    assert.equal(getsOf(suite.sim, `${v2.path}.zsync`).length, 1);
  });

  void test('server without range support: full download, warning', async () => {
    const app = 'noranges';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v2Small, v2.assetName));
    suite.sim.fault(v2.path, { noRanges: true });

    const run = await world.update();
    await assertFellBack(world, run, app, /zsync failed \(ZSYNC_NO_RANGES: .*\); fell back/);
  });

  void test('the fallback warning is visible in human output', async () => {
    const app = 'loud';
    const world = await installedV1(app, 'zsync: true');
    publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);

    const run = await world.updateHuman();
    assert.equal(run.code, 0, run.stderr);
    const all = `${run.stdout}\n${run.stderr}`;
    assert.match(all, /warning:? .*zsync failed \(ZSYNC_CONTROL_HTTP/i);
    const line = run.stdout.split('\n').find((l) => l.startsWith('updated') && l.includes(app));
    assert.ok(line, run.stdout);
    assert.match(line, /full download/);
    assert.doesNotMatch(line, /zsync|reused/);
    const installed = (await world.state()).apps[app]?.installed;
    assert.equal(installed?.sha256, sha256(suite.fx.v2Small));
  });

  void test('stale control file describing the installed v1 (no forge digest): full download', async () => {
    const app = 'stale';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Grown, { digest: false });
    // The release pipeline forgot to regenerate it: every block (and the SHA-1) is v1's.
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v1, v2.assetName));
    assert.notEqual(suite.fx.v2Grown.length, suite.fx.v1.length);

    const run = await world.update();
    const o = appOf(run, app);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(o.status, 'updated', JSON.stringify(o));
    assert.equal(
      o.path && sha256(await readFile(o.path)),
      sha256(suite.fx.v2Grown),
      'v1 was not installed as v2',
    );
    assert.equal(o.method, 'plain');
    assert.equal(o.warnings.length, 1, JSON.stringify(o.warnings));
    assert.match(
      o.warnings[0] ?? '',
      new RegExp(
        `zsync failed \\(ZSYNC_TARGET_CHANGED: .*${suite.fx.v1.length} bytes.*${suite.fx.v2Grown.length}`,
      ),
    );
    assert.equal((await world.state()).apps[app]?.installed?.sha256, sha256(suite.fx.v2Grown));
    assert.deepEqual(await world.temps(), []);
  });

  void test('zsync: auto uses the release’s <asset>.zsync asset', async () => {
    const app = 'autoyes';
    const world = await installedV1(app, 'zsync: auto');
    // Not at <url>.zsync: only the release's asset list can lead the client there.
    const controlPath = `/assets/${app}/control-${V2}`;
    const control = await zsyncmake(
      suite.fx.v2Small,
      `${suite.sim.url}/e2e/${app}/releases/download/${V2}/${app}-${V2}-x86_64.AppImage`,
    );
    const controlUrl = suite.sim.putAsset(controlPath, control);
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small, {
      extra: (p) => [{ name: `${p.assetName}.zsync`, url: controlUrl }],
    });

    const run = await world.update();
    const o = appOf(run, app);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(o.method, 'zsync', JSON.stringify(o));
    assert.deepEqual(o.warnings, []);
    assert.ok((o.bytes_reused ?? 0) >= suite.fx.v2Small.length * 0.95);
    assertZsyncTried(controlPath, v2.path);
    await assertV2Installed(world, app, o);
  });

  void test('zsync: auto without a .zsync asset: full download, warning', async () => {
    const app = 'autono';
    const world = await installedV1(app, 'zsync: auto');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    // A control file exists at <url>.zsync, but auto only trusts the release's asset list.
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v2Small, v2.assetName));

    const run = await world.update();
    await assertFellBack(world, run, app, /no \.zsync asset/);
    assert.deepEqual(getsOf(suite.sim, `${v2.path}.zsync`), []);
  });

  void test('the fallback warning is printed once, not live and again in the result', async () => {
    const app = 'autoonce';
    const world = await installedV1(app, 'zsync: auto');
    publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    const run = await world.updateHuman();
    assert.equal(run.code, 0, run.stderr);
    const both = `${run.stdout}\n${run.stderr}`;
    assert.equal(both.split('no .zsync asset').length - 1, 1, both);
    assert.match(run.stdout, new RegExp(`updated +${app} ${V1} → ${V2}`));
  });
});

void describe('verification still judges a zsync result', () => {
  void test('forge digest mismatch: not installed, v1 kept', async () => {
    const app = 'digest';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small, {
      digest: `sha256:${sha256(suite.fx.v1)}`,
    });
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v2Small, v2.assetName));

    const run = await world.update();
    await assertV1Kept(world, run, app, 'VERIFY_DIGEST');
    assertZsyncTried(`${v2.path}.zsync`, v2.path);
  });

  void test('wrong architecture: not installed, v1 kept', async () => {
    const app = 'arch';
    const world = await installedV1(app, 'zsync: true');
    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Arm, { digest: false });
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v2Arm, v2.assetName));

    const run = await world.update();
    await assertV1Kept(world, run, app, 'VERIFY_ARCH');
    assertZsyncTried(`${v2.path}.zsync`, v2.path);
  });
});
