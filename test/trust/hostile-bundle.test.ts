/**
 * Hostile attestation JSON (issue 18 §2): bundles fetched from a `bundle_url` (real HTTP, Snappy)
 * and the DSSE statements inside bundles are parsed within limits; nested or wide JSON is
 * PROVENANCE_INVALID saying which limit, refused before JSON.parse builds it.
 */
import { createHttpSettings } from '../../src/http/settings.js';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compress } from 'snappyjs';
import { startSim, type Sim } from '../../sim/index.js';
import { BUNDLE_JSON_LIMITS, entryBundle } from '../../src/trust/provenance/fetch-attestations.js';
import { parseStatement, STATEMENT_JSON_LIMITS } from '../../src/trust/provenance/statement.js';

/** Balanced, so that an unbounded JSON.parse accepts it (and builds 2 million arrays). */
const nested = (bytes: number): Buffer =>
  Buffer.concat([Buffer.alloc(bytes / 2, '['), Buffer.alloc(bytes / 2, ']')]);

void describe('hostile attestation JSON', () => {
  let sim: Sim;
  let n = 0;
  before(async () => {
    sim = await startSim();
  });
  after(async () => sim.stop());

  /** entryBundle of a blob holding `json`, Snappy-packed on the sim's second origin. */
  function bundleOf(json: Buffer): Promise<unknown> {
    const url = sim.putSecondAsset(`/attestation-blobs/h${++n}`, Buffer.from(compress(json)));
    return entryBundle(createHttpSettings(), { bundle: null, bundle_url: url }, undefined);
  }

  void test('4 MiB of nested arrays in a bundle: PROVENANCE_INVALID, too deep', async () => {
    await assert.rejects(bundleOf(nested(4 * 1024 * 1024)), {
      code: 'PROVENANCE_INVALID',
      message: new RegExp(`nests deeper than ${BUNDLE_JSON_LIMITS.maxDepth} levels$`),
    });
  });

  void test('a bundle of more values than any real one: PROVENANCE_INVALID, too large', async () => {
    const wide = Buffer.from(`{"a":[${'0,'.repeat(BUNDLE_JSON_LIMITS.maxValues)}0]}`);
    await assert.rejects(bundleOf(wide), {
      code: 'PROVENANCE_INVALID',
      message: new RegExp(`holds more than ${BUNDLE_JSON_LIMITS.maxValues} JSON values$`),
    });
  });

  void test('a bundle within the limits is returned parsed', async () => {
    const real = { mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json', x: [[['[[[']]] };
    assert.deepEqual(await bundleOf(Buffer.from(JSON.stringify(real))), { bundle: real, requests: 1 });
  });

  void test('a nested or wide statement payload is PROVENANCE_INVALID before parsing', () => {
    assert.throws(() => parseStatement(nested(1024 * 1024)), {
      code: 'PROVENANCE_INVALID',
      message: `the attestation payload nests deeper than ${STATEMENT_JSON_LIMITS.maxDepth} levels`,
    });
    const wide = Buffer.from(`{"subject":[${'{},'.repeat(STATEMENT_JSON_LIMITS.maxValues)}{}]}`);
    assert.throws(() => parseStatement(wide), {
      code: 'PROVENANCE_INVALID',
      message: `the attestation payload holds more than ${STATEMENT_JSON_LIMITS.maxValues} JSON values`,
    });
  });
});
