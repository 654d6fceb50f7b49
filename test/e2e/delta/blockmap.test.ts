// Delta updates from electron-builder's embedded block maps through `appimage-keeper update`:
// with both files carrying a block map and no .zsync file, v2 is rebuilt from the installed v1
// plus range requests for the changed chunks, reported as method "blockmap".
import assert from 'node:assert/strict';
import { writeFile, readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { getsOf, rangeBytes, V2, zsyncmake } from '../zsync/harness.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { assertInstalled, changedBytes, installedV1, mapOf, useBlockmapSuite } from './harness.js';

const suite = useBlockmapSuite();

void describe('block map delta updates through update', () => {
  void test('default delta: auto: copies what v1 holds, fetches exactly the changed chunks', async () => {
    const app = 'bm-small';
    const { v1, v2 } = suite.mapped;
    const world = await installedV1(suite, app, v1);
    const pub = publishHubRelease(suite.sim, app, V2, v2);

    const run = await world.update();
    const o = appOf(run, app);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(o.method, 'blockmap', JSON.stringify(o));
    assert.deepEqual(o.warnings, []);
    const next = mapOf(v2);
    const changed = changedBytes(mapOf(v1), next);
    assert.equal(o.bytes_reused, v2.length - next.tailSize - changed);
    assert.ok(changed < v2.length * 0.1, `changed ${changed} of ${v2.length}`);
    const ranges = getsOf(suite.sim, pub.path).map((g) => g.range);
    assert.equal(ranges[0], 'bytes=-4', 'the tail length is read first');
    assert.ok(
      ranges.every((r) => r?.startsWith('bytes=')),
      'only range requests',
    );
    // Asked for: the 4 length bytes, the JSON, and exactly the chunks v1 lacks.
    assert.equal(rangeBytes(ranges.slice(1), v2.length) + 4, next.tailSize + changed);
    const downloaded = o.bytes_downloaded ?? 0;
    assert.ok(downloaded >= next.tailSize + changed, `downloaded ${downloaded}`);
    assert.ok(downloaded < (next.tailSize + changed) * 1.05 + 2048, `downloaded ${downloaded}`);
    assert.equal(run.json?.bytes_downloaded, downloaded);
    await assertInstalled(world, app, o, v2);
  });

  void test('human output names the method and the bytes reused', async () => {
    const app = 'bm-human';
    const { v1, v2 } = suite.mapped;
    const world = await installedV1(suite, app, v1);
    publishHubRelease(suite.sim, app, V2, v2);

    const run = await world.updateHuman();
    assert.equal(run.code, 0, run.stderr);
    const line = run.stdout.split('\n').find((l) => l.startsWith('updated') && l.includes(app));
    assert.ok(line, run.stdout);
    assert.match(line, /\(\d+(\.\d)? kB, delta, \d+% reused\)/);
    assert.doesNotMatch(line, /blockmap|plain|segmented/);
    assert.doesNotMatch(run.stdout + run.stderr, /warning/i);
  });

  void test('a locally modified installed file: the damaged chunks are downloaded, v2 is exact', async () => {
    const app = 'bm-modified';
    const { v1, v2 } = suite.mapped;
    const world = await installedV1(suite, app, v1);
    const installed = (await world.state()).apps[app]?.installed?.file;
    assert.ok(installed);
    const bytes = await readFile(installed);
    // Damage three places inside the image (the tail stays intact, so the map still reads).
    for (const at of [70_000, 1_500_000, 2_500_000]) bytes[at] = bytes[at]! ^ 0xff;
    await writeFile(installed, bytes);
    publishHubRelease(suite.sim, app, V2, v2);

    const run = await world.update();
    const o = appOf(run, app);
    assert.equal(o.method, 'blockmap', JSON.stringify(o));
    const next = mapOf(v2);
    const clean = v2.length - next.tailSize - changedBytes(mapOf(v1), next);
    const lost = clean - (o.bytes_reused ?? 0);
    assert.ok(lost >= 3 * 8192 && lost <= 3 * 32768, `lost ${lost}`);
    await assertInstalled(world, app, o, v2);
  });

  void test('a .zsync file is preferred under auto; delta: blockmap ignores it', async () => {
    const { v1, v2 } = suite.mapped;
    for (const [app, extra, method] of [
      ['bm-zs-auto', '', 'zsync'],
      ['bm-zs-forced', 'delta: blockmap', 'blockmap'],
    ] as const) {
      const world = await installedV1(suite, app, v1, extra);
      // Published as a release asset, so `auto` finds it with the recipe's default `zsync: false`.
      const controlPath = `/assets/${app}/control-${V2}`;
      const pub = publishHubRelease(suite.sim, app, V2, v2);
      const controlUrl = suite.sim.putAsset(controlPath, await zsyncmake(v2, pub.url));
      publishHubRelease(suite.sim, app, V2, v2, {
        extra: [{ name: `${pub.assetName}.zsync`, url: controlUrl }],
      });
      const run = await world.update();
      const o = appOf(run, app);
      assert.equal(o.method, method, JSON.stringify(o));
      assert.deepEqual(o.warnings, []);
      assert.equal(getsOf(suite.sim, controlPath).length, method === 'zsync' ? 1 : 0);
      await assertInstalled(world, app, o, v2);
    }
  });
});
