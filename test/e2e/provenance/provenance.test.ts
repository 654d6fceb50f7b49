/**
 * Build provenance end to end: the built CLI (test-hooks build, trusting a test CA made with
 * openssl) updates apps whose attestations the sim serves, and every failure keeps the installed
 * version intact and runnable, names the error and exits 1.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestCa } from '../../helpers/attest-ca.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import {
  BUILD,
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
