/**
 * The provenance stage in-process against the sim, with the verifier's root replaced by a test CA
 * (the stage's `rootFor` parameter): the warn/require policy, release_attestation, several
 * attestations per digest, kinds we do not check, and recipes that cannot have attestations.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { AppSettings } from '../../src/config/types.js';
import type { Resolution } from '../../src/sources/types.js';
import { sourceFor } from '../../src/sources/index.js';
import type { ResolveDeps } from '../../src/sources/types.js';
import { checkProvenance as runStage, type ProvenanceOutcome } from '../../src/trust/provenance/stage.js';
import { loadRoot, type TrustedRootJson } from '../../src/trust/provenance/trusted-root.js';
import { startSim, type Sim } from '../../sim/index.js';
import { createTestCa, type TestCa } from '../helpers/attest-ca.js';
import { forge, makeContext, makeDeps, makeSettings } from '../sources/support.js';

const HEX = 'ab'.repeat(32);
const BUILD = 'https://slsa.dev/provenance/v1';
const RELEASE = 'https://in-toto.io/attestation/release/v0.1';

let sim: Sim;
let ca: TestCa;
before(async () => {
  sim = await startSim();
  ca = createTestCa();
});
after(async () => {
  await sim.stop();
  ca.dispose();
});
beforeEach(() => sim.clearRequests());

const rootFor = () => loadRoot('public-good', ca.trustedRoot as unknown as TrustedRootJson);

function settings(repo: string, extra: Partial<AppSettings> = {}): AppSettings {
  return makeSettings(forge(`${sim.url}/st/${repo}`), {
    hub_release_api_url: sim.hubApiUrl,
    hub_release_web_url: sim.url,
    provenance: 'require',
    ...extra,
  });
}

function resolution(extra: Partial<Resolution> = {}): Resolution {
  return {
    version: 'v1',
    identity: 'x',
    url: `${sim.url}/dl/a`,
    assetName: 'app.AppImage',
    sha256: HEX,
    ...extra,
  };
}

const build = (repo: string, hex = HEX) =>
  ca.bundle(
    {
      san: `https://github.com/st/${repo}/.github/workflows/build.yml@refs/tags/v1`,
      sourceRepository: `https://github.com/st/${repo}`,
    },
    { predicateType: BUILD, subject: [{ name: 'app.AppImage', digest: { sha256: hex } }] },
  );
const release = (repo: string, tag = 'v1') =>
  ca.bundle(
    { san: 'https://dotcom.releases.github.com' },
    {
      predicateType: RELEASE,
      subject: [{ name: 'app.AppImage', digest: { sha256: HEX } }],
      predicate: { repository: `st/${repo}`, tag },
    },
  );

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'passed';
  } catch (err) {
    return (err as { code: string }).code;
  }
}

/** The stage as the engine calls it: the app's source hands over its attestation API (none off the hub). */
function checkProvenance(
  s: AppSettings,
  res: Resolution,
  installed: Parameters<typeof runStage>[2],
  deps: ResolveDeps,
  roots: Parameters<typeof runStage>[4],
): Promise<ProvenanceOutcome> {
  return runStage(s, res, installed, { ...deps, attestations: sourceFor(s).attestations?.(deps) }, roots);
}

void describe('provenance stage', () => {
  void test('off sends nothing; a verified digest in state is not looked up again', async () => {
    const deps = makeDeps();
    const off = await checkProvenance(
      settings('a', { provenance: 'off' }),
      resolution(),
      undefined,
      deps,
      rootFor,
    );
    assert.deepEqual(off, { warnings: [], requests: 0 });
    const record = { digest: `sha256:${HEX}`, verifiedAt: '2026-01-01T00:00:00Z' };
    const again = await checkProvenance(settings('a'), resolution(), record, deps, rootFor);
    assert.equal(again.record, record);
    assert.equal(sim.requests.length, 0);
  });

  void test('one good attestation among bad and unrelated ones is enough', async () => {
    const sbom = ca.bundle(
      {
        san: 'https://github.com/st/mix/.github/workflows/build.yml@refs/tags/v1',
        sourceRepository: 'https://github.com/st/mix',
      },
      { predicateType: 'https://spdx.dev/Document/v2.3', subject: [{ digest: { sha256: HEX } }] },
    );
    sim.hub.setAttestations('st', 'mix', HEX, [sbom, build('elsewhere'), build('mix')]);
    const out = await checkProvenance(settings('mix'), resolution(), undefined, makeDeps(), rootFor);
    assert.equal(out.record?.build?.sourceRepository, 'https://github.com/st/mix');
    assert.deepEqual(out.warnings, []);
  });

  void test('warn: NONE, NO_DIGEST and IDENTITY are warnings; require: they fail', async () => {
    sim.hub.setAttestations('st', 'ident', HEX, [build('other')]);
    for (const [repo, res] of [
      ['missing', resolution()],
      ['nodigest', resolution({ sha256: undefined })],
      ['ident', resolution()],
    ] as const) {
      const ctx = makeContext();
      const warned = await checkProvenance(
        settings(repo, { provenance: 'warn' }),
        res,
        undefined,
        makeDeps(ctx),
        rootFor,
      );
      assert.equal(warned.record, undefined);
      assert.equal(warned.warnings.length, 1, repo);
      assert.ok(
        ctx.events.some((e) => e.type === 'warning' && e.code.startsWith('PROVENANCE_')),
        repo,
      );
      const code = await codeOf(checkProvenance(settings(repo), res, undefined, makeDeps(), rootFor));
      assert.match(code, /^PROVENANCE_(NONE|NO_DIGEST|IDENTITY)$/, repo);
    }
  });

  void test('non-hub recipes have no attestations', async () => {
    const direct = makeSettings(
      { strategy: 'direct', url: `${sim.url}/x`, check_method: 'etag' },
      { provenance: 'require' },
    );
    assert.equal(
      await codeOf(checkProvenance(direct, resolution(), undefined, makeDeps(), rootFor)),
      'PROVENANCE_NONE',
    );
    assert.equal(sim.requests.length, 0);
  });

  void test('release_attestation: auto asks only for immutable releases; require fails even under warn', async () => {
    sim.hub.setAttestations('st', 'rel', HEX, [build('rel')]);
    const mutable = await checkProvenance(settings('rel'), resolution(), undefined, makeDeps(), rootFor);
    assert.equal(mutable.record?.release, undefined);
    assert.equal(
      await codeOf(
        checkProvenance(settings('rel'), resolution({ immutable: true }), undefined, makeDeps(), rootFor),
      ),
      'PROVENANCE_NONE',
    );
    const strict = settings('rel', { provenance: 'warn', release_attestation: 'require' });
    assert.equal(
      await codeOf(checkProvenance(strict, resolution(), undefined, makeDeps(), rootFor)),
      'PROVENANCE_NONE',
    );
    const off = settings('rel', { release_attestation: 'off' });
    assert.equal(
      await codeOf(checkProvenance(off, resolution({ immutable: true }), undefined, makeDeps(), rootFor)),
      'passed',
    );
    sim.hub.setAttestations('st', 'rel', HEX, [build('rel'), release('rel')]);
    const both = await checkProvenance(
      settings('rel'),
      resolution({ immutable: true }),
      undefined,
      makeDeps(),
      rootFor,
    );
    assert.deepEqual(both.record?.release, {
      predicateType: RELEASE,
      signer: 'https://dotcom.releases.github.com',
      tag: 'v1',
    });
    sim.hub.setAttestations('st', 'rel', HEX, [build('rel'), release('rel', 'v0')]);
    const stale = settings('rel', { provenance: 'warn' });
    assert.equal(
      await codeOf(checkProvenance(stale, resolution({ immutable: true }), undefined, makeDeps(), rootFor)),
      'PROVENANCE_SUBJECT',
    );
  });

  void test('rate limited: require throws a rate-limit, warn warns; the window is kept for the host', async () => {
    sim.hub.setAttestations('st', 'rl', HEX, [build('rl')]);
    sim.fault(/\/attestations\//, { rateLimit: { kind: '403-remaining', resetInSeconds: 120 }, times: 1 });
    const deps = makeDeps();
    const err = await checkProvenance(settings('rl'), resolution(), undefined, deps, rootFor).catch(
      (e: unknown) => e,
    );
    assert.ok(err instanceof Error && 'retryAt' in err, String(err));
    const warned = await checkProvenance(
      settings('rl', { provenance: 'warn' }),
      resolution(),
      undefined,
      makeDeps(makeContext(), deps.store),
      rootFor,
    );
    assert.match(warned.warnings[0] ?? '', /rate limit/);
    assert.equal(
      sim.requests.filter((r) => r.path.includes('/attestations/')).length,
      1,
      'the open window sends nothing',
    );
  });

  void test('a certificate may name the configured hub web host instead of github.com, never another host', async () => {
    const signed = (host: string) =>
      ca.bundle(
        {
          san: `https://${host}/ST/Host/.github/workflows/build.yml@refs/tags/v1`,
          sourceRepository: `https://${host}/st/HOST`,
        },
        { predicateType: BUILD, subject: [{ digest: { sha256: HEX } }] },
      );
    sim.hub.setAttestations('st', 'host', HEX, [signed(new URL(sim.url).host)]);
    const out = await checkProvenance(settings('host'), resolution(), undefined, makeDeps(), rootFor);
    assert.equal(out.record?.build?.sourceRepository, `https://${new URL(sim.url).host}/st/HOST`);
    sim.hub.setAttestations('st', 'host', HEX, [signed('hub.evil.example')]);
    assert.equal(
      await codeOf(checkProvenance(settings('host'), resolution(), undefined, makeDeps(), rootFor)),
      'PROVENANCE_IDENTITY',
    );
  });

  void test('a hub failure (500) or an answer of the wrong shape is PROVENANCE_NONE: a warning under warn', async () => {
    sim.hub.setAttestations('st', 'flaky', HEX, [build('flaky')]);
    sim.fault(/\/attestations\//, { status: 500 });
    const warned = await checkProvenance(
      settings('flaky', { provenance: 'warn' }),
      resolution(),
      undefined,
      makeDeps(),
      rootFor,
    );
    assert.match(warned.warnings[0] ?? '', /PROVENANCE_NONE.*HTTP 500/);
    sim.clearFaults();
    sim.fault(/\/attestations\//, { body: '{"attestations":"nope"}', contentType: 'application/json' });
    assert.equal(
      await codeOf(checkProvenance(settings('flaky'), resolution(), undefined, makeDeps(), rootFor)),
      'PROVENANCE_NONE',
    );
    sim.clearFaults();
  });
});
