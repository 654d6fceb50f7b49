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

void describe('provenance: require', () => {
  void test('a valid inline attestation installs the update, records it, and is never looked up again', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'good');
    suite.sim.hub.setAttestations('e2e', 'good', hex, [ca.bundle(workflow('good'), provenanceOf(hex))]);
    suite.sim.clearRequests();
    const run = await world.run<UpdateJson>(['--json', 'update', 'good']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(appOf(run, 'good').status, 'updated');
    const calls = attestationRequests(suite.sim);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.headers.authorization, `Bearer ${TOKEN}`);
    const listed = appOf(await world.run<ListJson>(['--json', 'list']), 'good');
    assert.deepEqual(
      { ...listed.provenance, verified_at: undefined },
      {
        digest: `sha256:${hex}`,
        predicate_type: BUILD,
        signer_workflow: workflow('good').san,
        source_repository: 'https://github.com/e2e/good',
        source_commit: workflow('good').sourceCommit,
        source_ref: 'refs/tags/2.0.0',
        release_attestation: null,
        verified_at: undefined,
      },
    );
    suite.sim.clearRequests();
    assert.equal((await world.run(['--json', 'check', 'good'])).code, 0);
    assert.equal((await world.run(['--json', 'update', 'good'])).code, 0);
    assert.equal((await world.run(['--json', 'update', '--force', 'good'])).code, 0);
    assert.equal(attestationRequests(suite.sim).length, 0, 'a verified digest is not looked up again');
  });

  void test('bundle_url mode: the Snappy blob is fetched from the other origin without the token', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'blob');
    suite.sim.hub.setAttestations(
      'e2e',
      'blob',
      hex,
      [ca.bundle(workflow('blob'), provenanceOf(hex))],
      'bundle_url',
    );
    suite.sim.clearRequests();
    const run = await world.run<UpdateJson>(['--json', 'update', 'blob']);
    assert.equal(run.code, 0, run.stderr);
    const blobs = suite.sim.requests.filter((r) => r.path.startsWith('/attestation-blobs/'));
    assert.equal(blobs.length, 1);
    assert.equal(blobs[0]?.origin, 'second');
    assert.equal(blobs[0]?.headers.authorization, undefined, 'the token never reaches the blob host');
    assert.equal(attestationRequests(suite.sim)[0]?.headers.authorization, `Bearer ${TOKEN}`);
  });

  void test('no attestation (404): PROVENANCE_NONE, v1 kept', async () => {
    const world = await suite.world(['provenance: require']);
    await installedV1(world, 'none');
    const run = await world.run<UpdateJson>(['--json', 'update', 'none']);
    await assertKeptV1(world, 'none', run, 'PROVENANCE_NONE');
  });

  void test('no digest published: PROVENANCE_NO_DIGEST, v1 kept', async () => {
    const world = await suite.world(['provenance: require']);
    await installedV1(world, 'nodigest');
    publishHubRelease(suite.sim, 'nodigest', '2.0.0', await fixtureAppImage('nodigest', '2.0.0'), {
      digest: false,
    });
    const run = await world.run<UpdateJson>(['--json', 'update', 'nodigest']);
    await assertKeptV1(world, 'nodigest', run, 'PROVENANCE_NO_DIGEST');
  });

  void test('signed by a workflow of another repository: PROVENANCE_IDENTITY, v1 kept', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'forked');
    suite.sim.hub.setAttestations('e2e', 'forked', hex, [
      ca.bundle(workflow('forked', 'attacker'), provenanceOf(hex)),
    ]);
    const run = await world.run<UpdateJson>(['--json', 'update', 'forked']);
    const entry = await assertKeptV1(world, 'forked', run, 'PROVENANCE_IDENTITY');
    assert.match(entry.error?.message ?? '', /attacker\/forked/);
  });

  void test('provenance_signer names another workflow: PROVENANCE_IDENTITY; naming the signer passes', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'signer', [
      'provenance_signer: e2e/signer/.github/workflows/other.yml',
    ]);
    suite.sim.hub.setAttestations('e2e', 'signer', hex, [ca.bundle(workflow('signer'), provenanceOf(hex))]);
    await assertKeptV1(
      world,
      'signer',
      await world.run<UpdateJson>(['--json', 'update', 'signer']),
      'PROVENANCE_IDENTITY',
    );
    await world.writeForgeRecipe('signer', {
      extra: ['provenance_signer: E2E/Signer/.github/workflows/release.yml'],
    });
    assert.equal((await world.run(['--json', 'update', 'signer'])).code, 0);
  });

  void test('an attestation about other bytes: PROVENANCE_SUBJECT, v1 kept', async () => {
    const world = await suite.world(['provenance: warn']);
    const hex = await installedV1(world, 'subject');
    suite.sim.hub.setAttestations('e2e', 'subject', hex, [
      ca.bundle(workflow('subject'), provenanceOf('0'.repeat(64))),
    ]);
    // SUBJECT fails the app even under warn.
    await assertKeptV1(
      world,
      'subject',
      await world.run<UpdateJson>(['--json', 'update', 'subject']),
      'PROVENANCE_SUBJECT',
    );
  });

  void test('a tampered bundle: PROVENANCE_INVALID, v1 kept, even under warn', async () => {
    const world = await suite.world(['provenance: warn']);
    const hex = await installedV1(world, 'tampered');
    const bundle = ca.bundle(workflow('tampered'), provenanceOf(hex)) as {
      dsseEnvelope: { payload: string };
    };
    const statement = JSON.parse(
      Buffer.from(bundle.dsseEnvelope.payload, 'base64').toString('utf8'),
    ) as Record<string, unknown>;
    bundle.dsseEnvelope.payload = Buffer.from(
      JSON.stringify({ ...statement, predicate: { forged: true } }),
    ).toString('base64');
    suite.sim.hub.setAttestations('e2e', 'tampered', hex, [bundle]);
    await assertKeptV1(
      world,
      'tampered',
      await world.run<UpdateJson>(['--json', 'update', 'tampered']),
      'PROVENANCE_INVALID',
    );
  });

  void test('a CA our root does not know: PROVENANCE_STALE_ROOT says to update appimage-keeper', async () => {
    const world = await suite.world(['provenance: require']);
    const hex = await installedV1(world, 'stale');
    const other = createTestCa('another domain');
    try {
      suite.sim.hub.setAttestations('e2e', 'stale', hex, [
        other.bundle(workflow('stale'), provenanceOf(hex)),
      ]);
    } finally {
      other.dispose();
    }
    const run = await world.run<UpdateJson>(['--json', 'update', 'stale']);
    const entry = await assertKeptV1(world, 'stale', run, 'PROVENANCE_STALE_ROOT');
    assert.match(`${entry.error?.message} ${entry.error?.hint}`, /update appimage-keeper/);
    assert.doesNotMatch(`${entry.error?.message} ${entry.error?.hint}`, /tamper/i);
  });

  void test('the hub refuses (403): PROVENANCE_NONE; rate limited (429): rate_limited, nothing installed', async () => {
    const world = await suite.world(['provenance: require']);
    await installedV1(world, 'limited');
    suite.sim.fault(/\/attestations\//, { status: 403, times: 1 });
    await assertKeptV1(
      world,
      'limited',
      await world.run<UpdateJson>(['--json', 'update', 'limited']),
      'PROVENANCE_NONE',
    );
    suite.sim.fault(/\/attestations\//, {
      rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 600 },
      times: 1,
    });
    const run = await world.run<UpdateJson>(['--json', 'update', 'limited']);
    suite.sim.clearFaults();
    assert.equal(run.code, 0, run.stderr);
    assert.equal(appOf(run, 'limited').status, 'rate_limited');
    assert.ok(appOf(run, 'limited').retry_at);
    const state = await world.readState<{ apps: Record<string, { installed: { version: string } }> }>(
      'throw',
    );
    assert.equal(state.apps.limited?.installed.version, '1.0.0');
  });
});

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
