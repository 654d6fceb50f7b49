/**
 * `provenance: require` through a real forward proxy (Debian's tinyproxy, set in config.yml): the
 * attestation lookup on the hub and the bundle blob on its other origin travel through the proxy,
 * none goes direct (tinyproxy logs each request and stamps it with `Via`), and the plain-http
 * proxy never sees the hub token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { appOf } from '../../helpers/json-output.js';
import { startTinyproxy, type Tinyproxy } from '../../helpers/tinyproxy.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { TOKEN, attestationRequests, ca, installedV1, provenanceOf, suite, workflow } from './harness.js';

void describe('provenance through a proxy', () => {
  let proxy: Tinyproxy;
  before(async () => {
    proxy = await startTinyproxy();
  });
  after(async () => {
    await proxy.stop();
  });

  void test('attestation and bundle blob go through the proxy, nothing direct, no token', async () => {
    const world = await suite.world(['provenance: require', `http_proxy: ${proxy.url}`]);
    const hex = await installedV1(world, 'relayed');
    suite.sim.hub.setAttestations(
      'e2e',
      'relayed',
      hex,
      [ca.bundle(workflow('relayed'), provenanceOf(hex))],
      'bundle_url',
    );
    suite.sim.clearRequests();
    const seen = (await proxy.requests()).gets.length;
    const run = await world.run<UpdateJson>(['--json', 'update', 'relayed']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(appOf(run, 'relayed').status, 'updated');

    const lookups = attestationRequests(suite.sim);
    const blobs = suite.sim.requests.filter((r) => r.path.startsWith('/attestation-blobs/'));
    assert.equal(lookups.length, 1);
    assert.equal(blobs.length, 1);
    assert.equal(blobs[0]?.origin, 'second');
    const direct = suite.sim.requests.filter((r) => !/tinyproxy/.test(String(r.headers.via ?? '')));
    assert.deepEqual(
      direct.map((r) => r.path),
      [],
      'no request went direct',
    );
    const gets = (await proxy.requests()).gets.slice(seen);
    assert.equal(gets.length, suite.sim.requests.length, gets.join('\n'));
    assert.ok(
      gets.some((g) => g.includes(lookups[0]?.path ?? '-')),
      `the attestation lookup is in the proxy's log: ${gets.join('\n')}`,
    );
    assert.ok(
      gets.some((g) => g.includes(blobs[0]?.path ?? '-')),
      `the blob is in the proxy's log: ${gets.join('\n')}`,
    );
    assert.ok(
      suite.sim.requests.every((r) => !JSON.stringify(r.headers).includes(TOKEN)),
      'a plain-http proxy never reads the hub token',
    );
  });
});
