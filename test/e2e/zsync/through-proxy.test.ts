// A zsync delta update through a real forward proxy (Debian's tinyproxy, set in config.yml): the
// control file and every range request travel through the proxy, none goes direct. tinyproxy logs
// each request it forwards and stamps it with a `Via` header, so the sim can tell a relayed
// request from a direct one.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { sha256 } from '../../helpers/sha256.js';
import { startTinyproxy, type Tinyproxy } from '../../helpers/tinyproxy.js';
import { getsOf, rangeBytes, V1, V2, zsyncmake, useZsyncSuite } from './harness.js';

const suite = useZsyncSuite();

void describe('zsync through a proxy', () => {
  let proxy: Tinyproxy;
  before(async () => {
    proxy = await startTinyproxy();
  });
  after(async () => {
    await proxy.stop();
  });

  void test('control file and ranges go through the proxy, nothing direct', async () => {
    const app = 'proxied';
    const world = await suite.world();
    const config = await readFile(join(world.home.configDir, 'config.yml'), 'utf8');
    await world.home.writeConfig(`${config}http_proxy: ${proxy.url}\n`);
    await world.recipe(app, 'zsync: true');
    const v1 = publishHubRelease(suite.sim, app, V1, suite.fx.v1);
    const first = await world.update();
    assert.equal(appOf(first, app).status, 'updated', first.stdout + first.stderr);

    const v2 = publishHubRelease(suite.sim, app, V2, suite.fx.v2Small);
    suite.sim.putAsset(`${v2.path}.zsync`, await zsyncmake(suite.fx.v2Small, v2.assetName));
    suite.sim.requests.length = 0;
    const seen = (await proxy.requests()).gets.length;
    const run = await world.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const o = appOf(run, app);
    assert.equal(o.method, 'zsync', JSON.stringify(o));
    assert.ok((o.bytes_reused ?? 0) > suite.fx.v2Small.length * 0.9, JSON.stringify(o));
    assert.equal(sha256(await readFile(o.path ?? '')), sha256(suite.fx.v2Small));

    const ranges = getsOf(suite.sim, v2.path).map((g) => g.range);
    assert.ok(ranges.length > 0 && ranges.every((r) => r?.startsWith('bytes=')), 'only range requests');
    assert.equal(
      rangeBytes(ranges, suite.fx.v2Small.length),
      suite.fx.v2Small.length - (o.bytes_reused ?? 0),
    );
    // Every request the sim saw carries tinyproxy's Via stamp: none came straight from the CLI.
    const direct = suite.sim.requests.filter((r) => !/tinyproxy/.test(String(r.headers.via ?? '')));
    assert.deepEqual(
      direct.map((r) => r.path),
      [],
      'no request went direct',
    );
    // And the proxy's own log lists the control file and each range request.
    const origin = suite.sim.url;
    const gets = (await proxy.requests()).gets.slice(seen);
    assert.equal(gets.length, suite.sim.requests.length, gets.join('\n'));
    assert.ok(gets.includes(`GET ${origin}${v2.path}.zsync`), gets.join('\n'));
    assert.equal(gets.filter((g) => g === `GET ${origin}${v2.path}`).length, ranges.length, gets.join('\n'));
    assert.deepEqual(getsOf(suite.sim, v1.path), [], 'v1 was not fetched again');
  });
});
