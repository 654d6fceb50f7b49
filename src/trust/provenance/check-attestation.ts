/**
 * One attestation from end to end: parse the bundle, pick the root its predicate type calls for,
 * verify it cryptographically, then check who signed it and what it is about.
 */
import { ProvenanceError } from './errors.js';
import {
  checkBuildIdentity,
  checkReleaseIdentity,
  type BuildIdentity,
  type ExpectedSigner,
} from './identity.js';
import {
  BUILD_PREDICATE,
  parseStatement,
  RELEASE_PREDICATE,
  requireReleaseScope,
  requireSubject,
} from './statement.js';
import type { LoadedRoot, RootName } from './trusted-root.js';
import { dssePayload, parseBundle, verifyBundle } from './verify-bundle.js';

/** The asset an attestation must be about. */
export interface AttestationTarget extends ExpectedSigner {
  /** Lower-case hex SHA-256 the hub published for the asset. */
  sha256: string;
  assetName: string;
  tag: string;
}

/** A passed attestation, or one of a kind we do not check (SBOMs and the like). */
export type CheckedAttestation =
  | { kind: 'build'; predicateType: string; identity: BuildIdentity }
  | { kind: 'release'; predicateType: string; signer: string }
  | { kind: 'other'; predicateType: string };

/** Which kind an attestation claims to be, read before verification (only to route it). */
export function claimedKind(bundleJson: unknown): 'build' | 'release' | 'other' {
  const type = parseStatement(dssePayload(parseBundle(bundleJson))).predicateType;
  return type === BUILD_PREDICATE ? 'build' : type === RELEASE_PREDICATE ? 'release' : 'other';
}

/**
 * Checks one serialized bundle for `target`. Build provenance verifies against the public-good
 * root, release attestations against GitHub's; throws ProvenanceError on any failure.
 */
export function checkAttestation(
  bundleJson: unknown,
  target: AttestationTarget,
  rootFor: (name: RootName) => LoadedRoot,
): CheckedAttestation {
  const bundle = parseBundle(bundleJson);
  const claimed = parseStatement(dssePayload(bundle)).predicateType;
  if (claimed !== BUILD_PREDICATE && claimed !== RELEASE_PREDICATE)
    return { kind: 'other', predicateType: claimed };
  const build = claimed === BUILD_PREDICATE;
  const verified = verifyBundle(bundle, rootFor(build ? 'public-good' : 'github'));
  // From here on the statement is the signed one.
  const statement = parseStatement(verified.payload);
  if (statement.predicateType !== claimed) {
    throw new ProvenanceError('PROVENANCE_INVALID', 'the verified statement differs from the one announced');
  }
  if (build) {
    const identity = checkBuildIdentity(verified.certificate, target);
    requireSubject(statement, target.sha256);
    return { kind: 'build', predicateType: claimed, identity };
  }
  const signer = checkReleaseIdentity(verified.certificate);
  requireReleaseScope(statement, target.owner, target.repo, target.tag);
  requireSubject(statement, target.sha256, target.assetName);
  return { kind: 'release', predicateType: claimed, signer };
}
