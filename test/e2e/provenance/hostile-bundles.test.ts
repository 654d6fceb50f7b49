/**
 * Hostile attestation bundles through the built CLI (issue 18 §2): the audit's 32 `bundle_url`
 * blobs, each 4 MiB of nested JSON once Snappy-decoded. The update is refused cleanly with
 * PROVENANCE_INVALID naming the depth limit, the installed version kept, even under `warn`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appOf } from '../../helpers/json-output.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { assertKeptV1, installedV1, suite } from './harness.js';

/** Balanced nesting, which an unbounded JSON.parse accepts after building 2 million arrays. */
const NESTED = Buffer.concat([Buffer.alloc(2 * 1024 * 1024, '['), Buffer.alloc(2 * 1024 * 1024, ']')]);

void describe('hostile attestation bundles, end to end', () => {
  void test('32 bundle_url bundles of 4 MiB nested JSON: PROVENANCE_INVALID before parsing, v1 kept', async () => {
    const world = await suite.world(['provenance: warn']);
    const hex = await installedV1(world, 'nested');
    const bundles = Array.from({ length: 32 }, () => NESTED);
    suite.sim.hub.setAttestations('e2e', 'nested', hex, bundles, 'bundle_url');
    const run = await world.run<UpdateJson>(['--json', 'update', 'nested']);
    await assertKeptV1(world, 'nested', run, 'PROVENANCE_INVALID');
    assert.match(
      appOf(run, 'nested').error?.message ?? '',
      /attestation bundle at http:\/\/\S+\/attestation-blobs\/\d+ nests deeper than 32 levels/,
    );
  });
});
