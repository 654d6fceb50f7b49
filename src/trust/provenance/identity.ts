/**
 * Who signed: what sigstore-js leaves to the caller. A build-provenance certificate must come from
 * GitHub Actions' OIDC issuer, its SAN must be a workflow of the recipe's repository (or the
 * configured `provenance_signer`), and its source repository must be the recipe's. Repositories are
 * compared by owner and name, case-insensitively, on github.com or the configured hub web host.
 */
import type { X509Certificate } from '@sigstore/core';
import { ProvenanceError, shown } from './errors.js';

/** GitHub Actions' OIDC token issuer. */
export const ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';
/** SAN of the certificates that sign GitHub.com release attestations. */
export const RELEASE_SIGNER = 'https://dotcom.releases.github.com';

// Fulcio certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md).
const OID_ISSUER_V1 = '1.3.6.1.4.1.57264.1.1';
const OID_ISSUER_V2 = '1.3.6.1.4.1.57264.1.8';
const OID_SOURCE_REPO_URI = '1.3.6.1.4.1.57264.1.12';
const OID_SOURCE_REPO_DIGEST = '1.3.6.1.4.1.57264.1.13';
const OID_SOURCE_REPO_REF = '1.3.6.1.4.1.57264.1.14';

/** The repository a recipe follows and who may sign for it. */
export interface ExpectedSigner {
  owner: string;
  repo: string;
  /** Lower-case hosts a certificate may name: github.com and the configured hub web host. */
  hosts: readonly string[];
  /** `owner/repo/.github/workflows/file.yml`, when the recipe names one. */
  signer?: string | undefined;
}

/** What the certificate says about the build. */
export interface BuildIdentity {
  /** The SAN: `https://github.com/<owner>/<repo>/.github/workflows/<file>@<ref>`. */
  workflow: string;
  sourceRepository: string;
  sourceCommit?: string | undefined;
  sourceRef?: string | undefined;
}

/** Checks a build-provenance certificate; PROVENANCE_IDENTITY names what differs. */
export function checkBuildIdentity(cert: X509Certificate, expected: ExpectedSigner): BuildIdentity {
  const issuer = extensionText(cert, OID_ISSUER_V2, true) ?? extensionText(cert, OID_ISSUER_V1, false);
  if (issuer !== ACTIONS_ISSUER) {
    throw identityError(`signed by OIDC issuer ${shown(issuer)}, not GitHub Actions (${ACTIONS_ISSUER})`);
  }
  const san = cert.subjectAltName ?? '';
  const workflow = parseWorkflow(san, expected.hosts);
  if (!workflow)
    throw identityError(
      `the signer ${shown(san || undefined)} is not a GitHub Actions workflow on an allowed host`,
    );
  if (expected.signer) {
    const [owner = '', repo = '', ...path] = expected.signer.split('/');
    if (!sameRepo(workflow, owner, repo) || workflow.path !== path.join('/')) {
      throw identityError(`signed by workflow ${shown(san)}, not provenance_signer ${expected.signer}`);
    }
  } else if (!sameRepo(workflow, expected.owner, expected.repo)) {
    throw identityError(
      `signed by a workflow of ${shown(`${workflow.owner}/${workflow.repo}`)}, not ${expected.owner}/${expected.repo}`,
    );
  }
  const source = extensionText(cert, OID_SOURCE_REPO_URI, true);
  const sourceRepo = source ? parseRepoUrl(source, expected.hosts) : undefined;
  if (!sourceRepo || !sameRepo(sourceRepo, expected.owner, expected.repo)) {
    throw identityError(
      `built from source repository ${shown(source)}, not ${expected.owner}/${expected.repo}`,
    );
  }
  return {
    workflow: san,
    sourceRepository: source ?? '',
    sourceCommit: extensionText(cert, OID_SOURCE_REPO_DIGEST, true),
    sourceRef: extensionText(cert, OID_SOURCE_REPO_REF, true),
  };
}

/** Checks that a release attestation was signed by GitHub's release service. */
export function checkReleaseIdentity(cert: X509Certificate): string {
  const san = cert.subjectAltName ?? '';
  if (san !== RELEASE_SIGNER)
    throw identityError(`release attestation signed by ${shown(san || undefined)}, not ${RELEASE_SIGNER}`);
  return san;
}

/** The lower-case hosts a certificate may name for a recipe (github.com and the hub web host). */
export function allowedHosts(hubWebUrl: string | undefined): string[] {
  const hosts = new Set(['github.com']);
  if (hubWebUrl) hosts.add(new URL(hubWebUrl).host.toLowerCase());
  return [...hosts];
}

interface RepoRef {
  owner: string;
  repo: string;
}

function sameRepo(a: RepoRef, owner: string, repo: string): boolean {
  return a.owner.toLowerCase() === owner.toLowerCase() && a.repo.toLowerCase() === repo.toLowerCase();
}

function parseRepoUrl(value: string, hosts: readonly string[]): RepoRef | undefined {
  const m = /^https:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(value);
  if (!m?.[1] || !m[2] || !m[3] || !hosts.includes(m[1].toLowerCase())) return undefined;
  return { owner: m[2], repo: m[3] };
}

function parseWorkflow(san: string, hosts: readonly string[]): (RepoRef & { path: string }) | undefined {
  const m = /^https:\/\/([^/]+)\/([^/]+)\/([^/]+)\/(\.github\/workflows\/[^@]+)@(.+)$/.exec(san);
  if (!m?.[1] || !m[2] || !m[3] || !m[4] || !hosts.includes(m[1].toLowerCase())) return undefined;
  return { owner: m[2], repo: m[3], path: m[4] };
}

// Fulcio's newer extensions hold a DER UTF8String; the first ones (issuer v1) hold raw bytes.
function extensionText(cert: X509Certificate, oid: string, der: boolean): string | undefined {
  const ext = cert.extension(oid);
  if (!ext) return undefined;
  const raw = der ? ext.valueObj.subs[0]?.value : ext.value;
  return raw?.toString('utf8');
}

function identityError(message: string): ProvenanceError {
  return new ProvenanceError('PROVENANCE_IDENTITY', message);
}
