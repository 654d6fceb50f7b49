/**
 * Shared set-up of the provenance end-to-end files: a test CA made with openssl, the test-hooks
 * build that trusts it, a sim world per test, and the steps every case starts from.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Sim } from '../../../sim/index.js';
import { createTestCa, type LeafIdentity, type TestCa } from '../../helpers/attest-ca.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import type { CliRun } from '../../helpers/run-cli.js';
import { disposeTestHooksCli, testHooksCli } from '../../helpers/test-hooks-cli.js';
import type { UpdateJson } from '../../helpers/update-json.js';

export const BUILD = 'https://slsa.dev/provenance/v1';
export const TOKEN = 'ghp_provenanceTestToken';

/** The part of `list --json` these tests read. */
export interface ListJson {
  apps: { name: string; provenance: Record<string, unknown> | null }[];
}

/** The test CA of this file (set in the file's `before` hook). */
export let ca: TestCa;
let cliPath: string;

before(async () => {
  ca = createTestCa();
  cliPath = await testHooksCli();
});
after(async () => {
  ca.dispose();
  await disposeTestHooksCli();
});

/** One sim for the file; worlds run the test-hooks build trusting the test CA. */
export const suite = useSimSuite(
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

/** The identity of `owner/app`'s release workflow. */
export function workflow(app: string, owner = 'e2e'): LeafIdentity {
  return {
    san: `https://github.com/${owner}/${app}/.github/workflows/release.yml@refs/tags/2.0.0`,
    sourceRepository: `https://github.com/${owner}/${app}`,
    sourceCommit: 'c0ffee'.padEnd(40, '0'),
    sourceRef: 'refs/tags/2.0.0',
  };
}

/** A build-provenance statement for digest `hex`. */
export function provenanceOf(hex: string, name?: string) {
  return { predicateType: BUILD, subject: [{ ...(name ? { name } : {}), digest: { sha256: hex } }] };
}

/** Installs v1 of `app` with provenance off, then publishes v2; returns v2's digest. */
export async function installedV1(world: SimWorld, app: string, recipeExtra: string[] = []): Promise<string> {
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

/** Asserts the run failed with `code` and v1 is still installed and runs. */
export async function assertKeptV1(world: SimWorld, app: string, run: CliRun<UpdateJson>, code: string) {
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

/** Attestation lookups the sim received. */
export const attestationRequests = (sim: Sim) =>
  sim.requests.filter((r) => r.path.includes('/attestations/'));
