// Block map delta updates that cannot work: each falls back to the normal download with a visible
// warning (or, with no block map on the installed file, quietly downloads the whole file), and a
// rebuilt file still goes through the release's size and SHA-256 checks.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { CliRun } from '../../helpers/run-cli.js';
import { getsOf, V1, V2, type World } from '../zsync/harness.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { sha256 } from '../../helpers/sha256.js';
import type { UpdateAppJson, UpdateJson } from '../../helpers/update-json.js';
import { writeZip } from '../../helpers/zip-writer.js';
import { assertInstalled, installedV1, mapOf, useBlockmapSuite } from './harness.js';

const suite = useBlockmapSuite();

/** v2 came from one full download; `warning` is the only warning, or none when undefined. */
async function assertFullDownload(
  world: World,
  run: CliRun<UpdateJson>,
  app: string,
  body: Buffer,
  warning: RegExp | undefined,
): Promise<UpdateAppJson> {
  const o = appOf(run, app);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(o.method, 'plain', JSON.stringify(o));
  assert.equal(o.bytes_reused, 0);
  assert.ok((o.bytes_downloaded ?? 0) >= body.length);
  if (warning) {
    assert.equal(o.warnings.length, 1, JSON.stringify(o.warnings));
    assert.match(o.warnings[0] ?? '', warning);
  } else {
    assert.deepEqual(o.warnings, []);
  }
  await assertInstalled(world, app, o, body);
  return o;
}

/** Requests for the tail's length (`Range: bytes=-4`) the sim received for `path`. */
function tailProbes(path: string): number {
  return getsOf(suite.sim, path).filter((g) => g.range === 'bytes=-4').length;
}

void describe('block map fallbacks', () => {
  void test('a corrupt tail length on the new file: full download, warning, the probe counted', async () => {
    const app = 'bmf-corrupt';
    const world = await installedV1(suite, app, suite.mapped.v1);
    const corrupt = Buffer.from(suite.mapped.v2);
    // One byte more than the real JSON: sizes plus tail no longer add up to the file size.
    corrupt.writeUInt32BE(corrupt.readUInt32BE(corrupt.length - 4) + 1, corrupt.length - 4);
    const pub = publishHubRelease(suite.sim, app, V2, corrupt);

    const run = await world.update();
    const o = await assertFullDownload(
      world,
      run,
      app,
      corrupt,
      // One byte more than the JSON: the deflated stream read starts a byte early.
      /blockmap failed \(BLOCKMAP_NONE_REMOTE: .*carries no block map \(its tail is not deflated data\)\); fell back to a full download/,
    );
    assert.equal(tailProbes(pub.path), 1);
    const tail = mapOf(suite.mapped.v2).tailSize + 1;
    assert.equal(o.bytes_downloaded, corrupt.length + tail, 'the tail read, then the whole file');
  });

  void test('a damaged checksum inside the new tail: the chunk is refused, full download, warning', async () => {
    const app = 'bmf-damaged';
    const world = await installedV1(suite, app, suite.mapped.v1);
    const damaged = Buffer.from(suite.mapped.v2);
    // Still inflates and parses (a base64 character changes), so only the chunk check can tell.
    const at = damaged.length - 4 - Math.floor(mapOf(damaged).tailSize / 2);
    damaged[at] = damaged[at]! ^ 0xff;
    publishHubRelease(suite.sim, app, V2, damaged);

    const run = await world.update();
    await assertFullDownload(
      world,
      run,
      app,
      damaged,
      /blockmap failed \(BLOCKMAP_(CHUNK_CHECKSUM: chunk \d+ .* does not match the block map|NONE_REMOTE: .*)\); fell back/,
    );
  });

  void test('a server without range support: full download, warning', async () => {
    const app = 'bmf-noranges';
    const world = await installedV1(suite, app, suite.mapped.v1);
    const pub = publishHubRelease(suite.sim, app, V2, suite.mapped.v2);
    suite.sim.fault(pub.path, { noRanges: true });

    const run = await world.update();
    await assertFullDownload(
      world,
      run,
      app,
      suite.mapped.v2,
      /blockmap failed \(BLOCKMAP_NO_RANGES: .*\); fell back/,
    );
  });

  void test('a block map on the new file only: full download, quietly, no probe', async () => {
    const app = 'bmf-newonly';
    const world = await installedV1(suite, app, suite.fx.v1);
    const pub = publishHubRelease(suite.sim, app, V2, suite.mapped.v2);

    const run = await world.update();
    await assertFullDownload(world, run, app, suite.mapped.v2, undefined);
    assert.equal(tailProbes(pub.path), 0, 'the installed file has no map, so the new one is not probed');
  });

  void test('a block map on the installed file only: full download, warning', async () => {
    const app = 'bmf-oldonly';
    const world = await installedV1(suite, app, suite.mapped.v1);
    const pub = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);

    const run = await world.update();
    const o = await assertFullDownload(
      world,
      run,
      app,
      suite.fx.v2Small,
      /blockmap failed \(BLOCKMAP_NONE_REMOTE: .*\); fell back/,
    );
    assert.equal(tailProbes(pub.path), 1);
    assert.equal(o.bytes_downloaded, suite.fx.v2Small.length + 4, 'the probe cost 4 bytes');
  });

  void test('delta: off downloads the whole file even when both carry block maps', async () => {
    const app = 'bmf-off';
    const world = await installedV1(suite, app, suite.mapped.v1, 'delta: off');
    const pub = publishHubRelease(suite.sim, app, V2, suite.mapped.v2);

    const run = await world.update();
    await assertFullDownload(world, run, app, suite.mapped.v2, undefined);
    assert.equal(tailProbes(pub.path), 0);
  });

  void test('delta: blockmap with an installed file without one: full download, warning', async () => {
    const app = 'bmf-forced';
    const world = await installedV1(suite, app, suite.fx.v1, 'delta: blockmap');
    publishHubRelease(suite.sim, app, V2, suite.mapped.v2);

    const run = await world.update();
    await assertFullDownload(
      world,
      run,
      app,
      suite.mapped.v2,
      /delta: blockmap, but the installed file carries no block map/,
    );
  });

  void test('delta: zsync without a .zsync file: full download, warning, block maps unused', async () => {
    const app = 'bmf-zsync-only';
    const world = await installedV1(suite, app, suite.mapped.v1, 'delta: zsync');
    const pub = publishHubRelease(suite.sim, app, V2, suite.mapped.v2);

    const run = await world.update();
    await assertFullDownload(
      world,
      run,
      app,
      suite.mapped.v2,
      /^delta: zsync, but the release has no \.zsync asset; downloading the whole file$/,
    );
    assert.equal(tailProbes(pub.path), 0);
  });

  void test('a ZIP asset is never probed for a block map, even when the AppImage inside has one', async () => {
    const app = 'bmf-zip';
    const world = await suite.world();
    await world.recipe(app, '');
    const zipOf = (body: Buffer): Buffer => writeZip([{ name: `${app}.AppImage`, data: body }]);
    publishHubRelease(suite.sim, app, V1, zipOf(suite.mapped.v1), { assetName: `${app}-${V1}.zip` });
    assert.equal(appOf(await world.update(), app).status, 'updated');
    const pub = publishHubRelease(suite.sim, app, V2, zipOf(suite.mapped.v2), {
      assetName: `${app}-${V2}.zip`,
    });

    const run = await world.update();
    const o = appOf(run, app);
    assert.equal(run.code, 0, run.stderr);
    assert.notEqual(o.method, 'blockmap');
    assert.deepEqual(o.warnings, [], 'no block map warning for an archive');
    assert.equal(tailProbes(pub.path), 0);
    await assertInstalled(world, app, o, suite.mapped.v2);
  });

  void test('the fallback warning is visible in human output', async () => {
    const app = 'bmf-loud';
    const world = await installedV1(suite, app, suite.mapped.v1);
    publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);

    const run = await world.updateHuman();
    assert.equal(run.code, 0, run.stderr);
    assert.match(`${run.stdout}\n${run.stderr}`, /warning:? .*blockmap failed \(BLOCKMAP_NONE_REMOTE/i);
    const line = run.stdout.split('\n').find((l) => l.startsWith('updated') && l.includes(app));
    assert.ok(line, run.stdout);
    assert.match(line, /full download/);
    assert.doesNotMatch(line, /blockmap|reused/);
  });

  void test('forge digest mismatch after a block map rebuild: not installed, v1 kept', async () => {
    const app = 'bmf-digest';
    const world = await installedV1(suite, app, suite.mapped.v1);
    const pub = publishHubRelease(suite.sim, app, V2, suite.mapped.v2, {
      digest: `sha256:${sha256(suite.mapped.v1)}`,
    });

    const run = await world.update();
    const o = appOf(run, app);
    assert.equal(run.code, 1);
    assert.equal(o.status, 'failed', JSON.stringify(o));
    assert.equal(o.error?.code, 'VERIFY_DIGEST', JSON.stringify(o.error));
    assert.ok(
      getsOf(suite.sim, pub.path).every((g) => g.range),
      'rebuilt by ranges, then rejected',
    );
    const installed = (await world.state()).apps[app]?.installed;
    assert.equal(installed?.version, V1);
    assert.equal(sha256(await readFile(installed.file)), sha256(suite.mapped.v1));
    assert.deepEqual(await world.temps(), [], 'no temp files left');
  });
});
