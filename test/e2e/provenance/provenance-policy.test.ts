/**
 * Build provenance policy end to end, beside provenance.test.ts: the published build ignores the
 * test root, `provenance: warn` and release attestations of immutable releases, and attestations
 * asked of the hub itself when release metadata comes through a proxy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { runCli } from '../../helpers/run-cli.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import {
  TOKEN,
  ca,
  suite,
  workflow,
  provenanceOf,
  installedV1,
  assertKeptV1,
  attestationRequests,
  type ListJson,
} from './harness.js';

const RELEASE = 'https://in-toto.io/attestation/release/v0.1';

void describe('the published build', () => {
  void test('ignores APPIMAGE_KEEPER_TEST_TRUSTED_ROOT: the test CA stays unknown', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'shipped');
    suite.sim.hub.setAttestations('e2e', 'shipped', hex, [ca.bundle(workflow('shipped'), provenanceOf(hex))]);
    const run = await runCli<UpdateJson>(['--json', 'update', 'shipped'], { env: world.env });
    await assertKeptV1(world, 'shipped', run, 'PROVENANCE_STALE_ROOT');
  });
});

void describe('provenance: warn and release attestations', () => {
  void test('warn: a missing attestation is a warning and the update installs', async () => {
    const world = await suite.world(['provenance: warn']);
    await installedV1(world, 'warned');
    const run = await world.run<UpdateJson>(['--json', 'update', 'warned']);
    assert.equal(run.code, 0, run.stderr);
    const entry = appOf(run, 'warned');
    assert.equal(entry.status, 'updated');
    assert.ok(
      entry.warnings.some((w: string) => w.includes('PROVENANCE_NONE')),
      JSON.stringify(entry.warnings),
    );
  });

  void test('an immutable release needs its release attestation too (auto)', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'immut');
    const body = await fixtureAppImage('immut', '2.0.0');
    const published = publishHubRelease(suite.sim, 'immut', '2.0.0', body);
    suite.sim.hub.setLatest('e2e', 'immut', {
      tag: '2.0.0',
      immutable: true,
      assets: [{ name: published.assetName, url: published.url, digest: `sha256:${hex}` }],
    });
    const build = ca.bundle(workflow('immut'), provenanceOf(hex));
    suite.sim.hub.setAttestations('e2e', 'immut', hex, [build]);
    await assertKeptV1(
      world,
      'immut',
      await world.run<UpdateJson>(['--json', 'update', 'immut']),
      'PROVENANCE_NONE',
    );
    const release = ca.bundle(
      { san: 'https://dotcom.releases.github.com' },
      {
        predicateType: RELEASE,
        subject: [{ name: published.assetName, digest: { sha256: hex } }],
        predicate: { repository: 'e2e/immut', tag: '2.0.0' },
      },
    );
    suite.sim.hub.setAttestations('e2e', 'immut', hex, [build, release], 'bundle_url');
    const run = await world.run<UpdateJson>(['--json', 'update', 'immut']);
    assert.equal(run.code, 0, run.stderr);
    const listed = appOf(await world.run<ListJson>(['--json', 'list']), 'immut');
    assert.deepEqual(listed.provenance?.release_attestation, {
      predicate_type: RELEASE,
      signer: 'https://dotcom.releases.github.com',
      tag: '2.0.0',
    });
  });
});

void describe('provenance and the hub proxy', () => {
  void test('metadata through a proxy: attestations still come from the hub itself, never the proxy', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'proxied');
    suite.sim.hub.setAttestations('e2e', 'proxied', hex, [ca.bundle(workflow('proxied'), provenanceOf(hex))]);
    const proxy = ['hub_proxy: true', `hub_proxy_prefix: ${suite.sim.proxyPrefix()}`];
    const limited = { rateLimit: { kind: '403-remaining', resetInSeconds: 3600 } } as const;
    // The hub limits the release request; with respect_rate_limits off the hub is still asked.
    suite.sim.fault('/repos/e2e/proxied/releases/latest', { ...limited, times: 1 });
    await world.writeForgeRecipe('proxied', { extra: [...proxy, 'respect_rate_limits: false'] });
    suite.sim.clearRequests();
    const run = await world.run<UpdateJson>(['--json', 'update', 'proxied']);
    assert.equal(run.code, 0, run.stderr);
    const entry = appOf(run, 'proxied');
    assert.equal(entry.status, 'updated');
    assert.ok(entry.via_proxy, 'the metadata came through the proxy');
    const calls = attestationRequests(suite.sim);
    assert.deepEqual(
      calls.map((c) => [c.origin, c.path.startsWith('/repos/'), c.headers.authorization]),
      [['main', true, `Bearer ${TOKEN}`]],
      'one direct hub request with the token, none through the proxy',
    );
    const listed = appOf(await world.run<ListJson>(['--json', 'list']), 'proxied');
    assert.equal(listed.provenance?.digest, `sha256:${hex}`);
  });

  void test('metadata through a proxy and the hub limits the attestation request too: require waits, v1 kept', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'waiting');
    suite.sim.hub.setAttestations('e2e', 'waiting', hex, [ca.bundle(workflow('waiting'), provenanceOf(hex))]);
    await world.writeForgeRecipe('waiting', {
      extra: ['hub_proxy: true', `hub_proxy_prefix: ${suite.sim.proxyPrefix()}`],
    });
    const limited = { rateLimit: { kind: '403-remaining', resetInSeconds: 3600 } } as const;
    suite.sim.fault('/repos/e2e/waiting/releases/latest', { ...limited, times: 1 });
    suite.sim.fault(/\/repos\/e2e\/waiting\/attestations\//, { ...limited, times: 1 });
    suite.sim.clearRequests();
    const run = await world.run<UpdateJson>(['--json', 'update', 'waiting']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(appOf(run, 'waiting').status, 'rate_limited');
    const calls = attestationRequests(suite.sim);
    assert.deepEqual(
      calls.map((c) => c.origin),
      ['main'],
      'asked of the hub once, never of the proxy',
    );
    assert.equal(suite.sim.requests.filter((r) => r.path.startsWith('/dl/')).length, 0, 'nothing downloaded');
    const state = await world.readState<{
      apps: Record<string, { installed: { version: string; file: string } }>;
    }>('throw');
    assert.equal(state.apps.waiting?.installed.version, '1.0.0');
    assert.equal(await execInstalled(state.apps.waiting.installed.file), 'waiting 1.0.0');
  });
});
