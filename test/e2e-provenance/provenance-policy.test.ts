/**
 * Build provenance end to end: the built CLI (test-hooks build, trusting a test CA made with
 * openssl) updates apps whose attestations the sim serves, and every failure keeps the installed
 * version intact and runnable, names the error and exits 1.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sim } from '../../sim/index.js';
import { createTestCa, type LeafIdentity, type TestCa } from '../helpers/attest-ca.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../helpers/fixture-appimages.js';
import { publishHubRelease } from '../helpers/hub-release.js';
import { appOf } from '../helpers/json-output.js';
import { execInstalled } from '../helpers/run-program.js';
import { sha256 } from '../helpers/sha256.js';
import { makeSimWorld, type SimWorld } from '../helpers/sim-world.js';
import { useSimSuite } from '../helpers/sim-suite.js';
import { runCli, type CliRun } from '../helpers/run-cli.js';
import { disposeTestHooksCli, testHooksCli } from '../helpers/test-hooks-cli.js';
import type { UpdateJson } from '../helpers/update-json.js';

const BUILD = 'https://slsa.dev/provenance/v1';
const RELEASE = 'https://in-toto.io/attestation/release/v0.1';
const TOKEN = 'ghp_provenanceTestToken';

/** The part of `list --json` these tests read. */
interface ListJson {
  apps: { name: string; provenance: Record<string, unknown> | null }[];
}

let ca: TestCa;
let cliPath: string;

before(async () => {
  ca = createTestCa();
  cliPath = await testHooksCli();
});
after(async () => {
  ca.dispose();
  await disposeTestHooksCli();
});

const suite = useSimSuite(
  (sim: Sim, configLines: string[] = []) =>
    makeSimWorld(sim, {
      configLines,
      cli: {
        path: cliPath,
        env: { APPIMAGE_KEEPER_TEST_TRUSTED_ROOT: ca.trustedRootFile, HUB_TOKEN: TOKEN },
      },
    }),
  disposeFixtureAppImages,
);

function workflow(app: string, owner = 'e2e'): LeafIdentity {
  return {
    san: `https://github.com/${owner}/${app}/.github/workflows/release.yml@refs/tags/2.0.0`,
    sourceRepository: `https://github.com/${owner}/${app}`,
    sourceCommit: 'c0ffee'.padEnd(40, '0'),
    sourceRef: 'refs/tags/2.0.0',
  };
}

function provenanceOf(hex: string, name?: string) {
  return { predicateType: BUILD, subject: [{ ...(name ? { name } : {}), digest: { sha256: hex } }] };
}

/** Installs v1 of `app` with provenance off, then publishes v2; returns v2's digest. */
async function installedV1(world: SimWorld, app: string, recipeExtra: string[] = []): Promise<string> {
  const sim = suite.sim;
  await world.writeForgeRecipe(app, { extra: ['provenance: off', ...recipeExtra] });
  publishHubRelease(sim, app, '1.0.0', await fixtureAppImage(app, '1.0.0'));
  const first = await world.run<UpdateJson>(['--json', 'update', app]);
  assert.equal(first.code, 0, first.stderr);
  await world.writeForgeRecipe(app, { extra: recipeExtra });
  const v2 = await fixtureAppImage(app, '2.0.0');
  publishHubRelease(sim, app, '2.0.0', v2);
  return sha256(v2);
}

async function assertKeptV1(world: SimWorld, app: string, run: CliRun<UpdateJson>, code: string) {
  assert.equal(run.code, 1);
  const entry = appOf(run, app);
  assert.equal(entry.status, 'failed');
  assert.equal(entry.error?.code, code, JSON.stringify(entry.error));
  const state = await world.readState<{
    apps: Record<string, { installed: { version: string; file: string } }>;
  }>('throw');
  const installed = state.apps[app]?.installed;
  assert.equal(installed?.version, '1.0.0');
  assert.equal(await execInstalled(installed.file), `${app} 1.0.0`);
  return entry;
}

const attestationRequests = (sim: Sim) => sim.requests.filter((r) => r.path.includes('/attestations/'));

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
