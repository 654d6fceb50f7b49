/**
 * Cryptographic verification of one Sigstore bundle with sigstore-js: certificate chain to the
 * embedded root, timestamps, transparency log, DSSE signature. Failures are split into "our root
 * does not know this authority" (PROVENANCE_STALE_ROOT: update the tool) and "it does not verify"
 * (PROVENANCE_INVALID), because only the second one means the bundle is wrong.
 */
import { bundleFromJSON, isBundleWithDsseEnvelope, type Bundle } from '@sigstore/bundle';
import type { X509Certificate } from '@sigstore/core';
import { Verifier, toSignedEntity, type SignedEntity } from '@sigstore/verify';
import { ProvenanceError, shown } from './errors.js';
import type { LoadedRoot } from './trusted-root.js';

/** A bundle whose signature verified, with what the identity and statement checks read next. */
export interface VerifiedBundle {
  certificate: X509Certificate;
  /** The DSSE payload (an in-toto statement), as signed. */
  payload: Buffer;
}

const IN_TOTO_PAYLOAD = 'application/vnd.in-toto+json';

/** Parses serialized bundle JSON; anything malformed (a missing certificate too) is PROVENANCE_INVALID. */
export function parseBundle(json: unknown): Bundle {
  try {
    return bundleFromJSON(json);
  } catch (err) {
    throw new ProvenanceError('PROVENANCE_INVALID', `malformed Sigstore bundle: ${errorText(err)}`);
  }
}

/** The in-toto payload of a DSSE bundle, read before verification to pick the root. */
export function dssePayload(bundle: Bundle): Buffer {
  if (!isBundleWithDsseEnvelope(bundle)) {
    throw new ProvenanceError(
      'PROVENANCE_INVALID',
      'the bundle carries no DSSE envelope (not an attestation)',
    );
  }
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD) {
    throw new ProvenanceError(
      'PROVENANCE_INVALID',
      `unexpected DSSE payload type ${shown(envelope.payloadType)}`,
    );
  }
  return envelope.payload;
}

/** Verifies `bundle` against `root`; returns the signing certificate and the signed payload. */
export function verifyBundle(bundle: Bundle, root: LoadedRoot): VerifiedBundle {
  const payload = dssePayload(bundle);
  let entity: SignedEntity;
  try {
    entity = toSignedEntity(bundle);
  } catch (err) {
    throw new ProvenanceError('PROVENANCE_INVALID', `unusable Sigstore bundle: ${errorText(err)}`);
  }
  if (entity.key.$case !== 'certificate') {
    throw new ProvenanceError('PROVENANCE_INVALID', 'the bundle is signed by a bare key, not a certificate');
  }
  const certificate = entity.key.certificate;
  const unknown = unknownAuthority(entity, certificate, root);
  if (unknown) {
    throw new ProvenanceError(
      'PROVENANCE_STALE_ROOT',
      `the attestation's ${unknown} is not in the embedded ${root.name} trusted root (update appimage-keeper)`,
    );
  }
  try {
    new Verifier(root.material, root.options).verify(entity);
  } catch (err) {
    throw new ProvenanceError('PROVENANCE_INVALID', `the attestation does not verify: ${errorText(err)}`, {
      verifier: (err as { code?: unknown }).code,
    });
  }
  return { certificate, payload };
}

/**
 * Names an authority the bundle relies on that the root does not list: the certificate's issuing
 * CA, a timestamp authority, or a transparency log. Listed but failing is a verification failure.
 */
function unknownAuthority(entity: SignedEntity, leaf: X509Certificate, root: LoadedRoot): string | undefined {
  const { certificateAuthorities, timestampAuthorities, tlogs } = root.material;
  const issuerKnown = certificateAuthorities.some((ca) =>
    ca.certChain.some((c) => c.subject.equals(leaf.issuer)),
  );
  if (!issuerKnown) return 'certificate authority';
  for (const ts of entity.timestamps) {
    if (ts.$case === 'timestamp-authority') {
      const known = timestampAuthorities.some((tsa) => {
        const signer = tsa.certChain[0];
        return signer !== undefined && signer.issuer.equals(ts.timestamp.signerIssuer);
      });
      if (!known) return 'timestamp authority';
    }
  }
  for (const entry of entity.tlogEntries) {
    const id = entry.logId?.keyId;
    if (id && !tlogs.some((log) => log.logID.equals(id))) return 'transparency log';
  }
  return undefined;
}

function errorText(err: unknown): string {
  return shown(err instanceof Error ? err.message : String(err));
}
