/**
 * The provenance verifier on real attestations made by GitHub Actions and GitHub releases
 * (../shared/corpus/attestations): good bundles pass, broken ones fail with the right code.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { checkAttestation, type AttestationTarget } from '../../src/trust/provenance/check-attestation.js';
import { ProvenanceError } from '../../src/trust/provenance/errors.js';
import { checkBuildIdentity, type ExpectedSigner } from '../../src/trust/provenance/identity.js';
import { parseStatement, requireSubject } from '../../src/trust/provenance/statement.js';
import {
  embeddedRoot,
  githubRootJson,
  loadRoot,
  type TrustedRootJson,
} from '../../src/trust/provenance/trusted-root.js';
import { parseBundle, verifyBundle } from '../../src/trust/provenance/verify-bundle.js';
import { corpusFolder } from '../helpers/corpus.js';

const { dir, skip } = corpusFolder('attestations');
const readJson = (name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'));
const readLines = (name: string): unknown[] =>
  readFileSync(join(dir, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as unknown);
const sha = (alg: string, name: string): string =>
  createHash(alg)
    .update(readFileSync(join(dir, name)))
    .digest('hex');

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProvenanceError, `expected a ProvenanceError, got ${String(err)}`);
    return err.code;
  }
  return 'passed';
}

const SIGSTORE_JS: ExpectedSigner = { owner: 'sigstore', repo: 'sigstore-js', hosts: ['github.com'] };

void describe('provenance on the real attestation corpus', { skip }, () => {
  const publicGood = () => loadRoot('public-good', readJson('trusted_root.json') as TrustedRootJson);
  const github = () => loadRoot('github', readJson('github-trusted-root.json') as TrustedRootJson);
  const goodBuildBundles = (): [string, unknown][] => [
    ['sigstore-js-2.1.0-bundle.json', readJson('sigstore-js-2.1.0-bundle.json')],
    ['sigstore-js-2.1.0-bundle-v0.1.json', readJson('sigstore-js-2.1.0-bundle-v0.1.json')],
    ...readLines('sigstore-js-2.1.0_with_2_bundles.jsonl').map((b, i): [string, unknown] => [
      `jsonl #${i}`,
      b,
    ]),
  ];

  void test('each good build-provenance bundle verifies against trusted_root.json and names sigstore/sigstore-js', () => {
    for (const [name, json] of goodBuildBundles()) {
      const verified = verifyBundle(parseBundle(json), publicGood());
      const id = checkBuildIdentity(verified.certificate, SIGSTORE_JS);
      assert.match(
        id.workflow,
        /^https:\/\/github\.com\/sigstore\/sigstore-js\/\.github\/workflows\/release\.yml@/,
        name,
      );
      assert.equal(id.sourceRepository, 'https://github.com/sigstore/sigstore-js', name);
      assert.match(id.sourceCommit ?? '', /^[0-9a-f]{40}$/, name);
      assert.equal(id.sourceRef, 'refs/heads/main', name);
      // The statement names the tarball beside it (by SHA-512, as npm publishes it).
      const subject = parseStatement(verified.payload).subject[0];
      assert.equal(subject?.digest.sha512, sha('sha512', 'sigstore-js-2.1.0.tgz'), name);
    }
  });

  void test('the public-good root embedded from @sigstore/tuf verifies the same bundles', () => {
    for (const [name, json] of goodBuildBundles()) {
      assert.doesNotThrow(() => verifyBundle(parseBundle(json), embeddedRoot('public-good', {})), name);
    }
  });

  void test('a bundle whose statement names the artifact only by SHA-512 fails on the subject for its SHA-256', () => {
    const verified = verifyBundle(parseBundle(readJson('sigstore-js-2.1.0-bundle.json')), publicGood());
    const statement = parseStatement(verified.payload);
    assert.equal(
      code(() => requireSubject(statement, sha('sha256', 'sigstore-js-2.1.0.tgz'))),
      'PROVENANCE_SUBJECT',
    );
  });

  void test('the invalid-signature bundle fails as PROVENANCE_INVALID', () => {
    const json = readJson('sigstoreBundle-invalid-signature.json');
    assert.equal(
      code(() => verifyBundle(parseBundle(json), publicGood())),
      'PROVENANCE_INVALID',
    );
  });

  void test('the bundle with its certificate missing fails as PROVENANCE_INVALID', () => {
    const [json] = readLines('github_provenance_demo-0.0.12-py3-none-any-bundle-missing-cert.jsonl');
    assert.equal(
      code(() => verifyBundle(parseBundle(json), publicGood())),
      'PROVENANCE_INVALID',
    );
  });

  void test('a good bundle checked against another repository fails on identity', () => {
    const verified = verifyBundle(parseBundle(readJson('sigstore-js-2.1.0-bundle.json')), publicGood());
    const other = { owner: 'sigstore', repo: 'cosign', hosts: ['github.com'] };
    assert.equal(
      code(() => checkBuildIdentity(verified.certificate, other)),
      'PROVENANCE_IDENTITY',
    );
    const signer = { ...SIGSTORE_JS, signer: 'sigstore/sigstore-js/.github/workflows/ci.yml' };
    assert.equal(
      code(() => checkBuildIdentity(verified.certificate, signer)),
      'PROVENANCE_IDENTITY',
    );
    const named = {
      ...SIGSTORE_JS,
      owner: 'SigStore',
      repo: 'SIGSTORE-JS',
      signer: 'SIGSTORE/Sigstore-JS/.github/workflows/release.yml',
    };
    assert.equal(
      code(() => checkBuildIdentity(verified.certificate, named)),
      'passed',
    );
    assert.equal(
      code(() => checkBuildIdentity(verified.certificate, { ...SIGSTORE_JS, hosts: ['ghe.example.com'] })),
      'PROVENANCE_IDENTITY',
    );
  });

  void test('a certificate from another OIDC issuer than GitHub Actions fails on identity', () => {
    const verified = verifyBundle(parseBundle(readJson('custom-issuer.sigstore.json')), publicGood());
    const expected = { owner: 'too-legit', repo: 'attest', hosts: ['github.com'] };
    assert.equal(
      code(() => checkBuildIdentity(verified.certificate, expected)),
      'PROVENANCE_IDENTITY',
    );
  });

  void test('a bundle from a CA our roots do not know is a stale root, not tampering', () => {
    // GitHub's private trust domain, signed by an intermediate (l2) neither root lists.
    const [json] = readLines('github_provenance_demo-0.0.12-py3-none-any-bundle.jsonl');
    assert.equal(
      code(() => verifyBundle(parseBundle(json), publicGood())),
      'PROVENANCE_STALE_ROOT',
    );
    assert.equal(
      code(() => verifyBundle(parseBundle(json), github())),
      'PROVENANCE_STALE_ROOT',
    );
  });

  const release: AttestationTarget = {
    owner: 'bdehamer',
    repo: 'delme',
    hosts: ['github.com'],
    sha256: 'e15b593c6ab8d7725a3cc82226ef816cac6bf9c70eed383bd459295cc65f5ec3',
    assetName: 'artifact.zip',
    tag: 'v6',
  };

  void test('the release attestation passes with GitHub root only', () => {
    const json = readJson('github-release-attestation.json');
    const withGithub = checkAttestation(json, release, (n) => (n === 'github' ? github() : publicGood()));
    assert.equal(withGithub.kind, 'release');
    const withEmbedded = checkAttestation(json, release, (n) => embeddedRoot(n, {}));
    assert.equal(withEmbedded.kind, 'release');
    assert.equal(
      code(() => verifyBundle(parseBundle(json), publicGood())),
      'PROVENANCE_STALE_ROOT',
    );
    assert.equal(
      code(() => checkAttestation(json, release, () => publicGood())),
      'PROVENANCE_STALE_ROOT',
    );
  });

  void test('the release attestation fails on the subject for another tag, repository, asset or digest', () => {
    const json = readJson('github-release-attestation.json');
    const roots = (n: string) => (n === 'github' ? github() : publicGood());
    for (const change of [
      { tag: 'v7' },
      { repo: 'other' },
      { assetName: 'other.zip' },
      { sha256: '0'.repeat(64) },
    ]) {
      assert.equal(
        code(() => checkAttestation(json, { ...release, ...change }, roots)),
        'PROVENANCE_SUBJECT',
        JSON.stringify(change),
      );
    }
    assert.equal(
      code(() => checkAttestation(json, { ...release, owner: 'BDEHAMER', repo: 'DelMe' }, roots)),
      'passed',
    );
  });

  void test('a build-provenance bundle goes through checkAttestation to the subject check', () => {
    const target = {
      ...SIGSTORE_JS,
      sha256: sha('sha256', 'sigstore-js-2.1.0.tgz'),
      assetName: 'sigstore-js-2.1.0.tgz',
      tag: 'v2.1.0',
    };
    const json = readJson('sigstore-js-2.1.0-bundle.json');
    assert.equal(
      code(() => checkAttestation(json, target, () => publicGood())),
      'PROVENANCE_SUBJECT',
    );
    assert.equal(
      code(() => checkAttestation(json, { ...target, repo: 'other' }, () => publicGood())),
      'PROVENANCE_IDENTITY',
    );
  });

  void test('the embedded GitHub root holds the same authorities as the root GitHub publishes', () => {
    const published = readJson('github-trusted-root.json') as Required<TrustedRootJson>;
    const ours = githubRootJson() as Required<TrustedRootJson>;
    assert.deepEqual(ours.certificateAuthorities, published.certificateAuthorities);
    assert.deepEqual(ours.timestampAuthorities, published.timestampAuthorities);
    assert.deepEqual([ours.tlogs, ours.ctlogs], [published.tlogs, published.ctlogs]);
  });
});
