/**
 * Authenticity of a new executable: a build-provenance attestation of its published digest,
 * verified with the same Sigstore code as `provenance: require`, and signed by the pinned release
 * workflow of our own repository (self-signer.ts). Looked up before the download, like an app's
 * provenance stage; the download's SHA-256 check then ties the file to the attested digest.
 */
import type { AppSettings } from '../../config/types.js';
import { KeeperError } from '../../core/errors.js';
import { sourceFor } from '../../sources/index.js';
import type { ResolveDeps } from '../../sources/types.js';
import { checkAttestation } from '../../trust/provenance/check-attestation.js';
import { ProvenanceError, worstFailure } from '../../trust/provenance/errors.js';
import { entryBundle, listAttestations } from '../../trust/provenance/fetch-attestations.js';
import type { BuildIdentity } from '../../trust/provenance/identity.js';
import type { LoadedRoot, RootName } from '../../trust/provenance/trusted-root.js';
import { selfSigner } from './self-signer.js';

const HINT =
  "the file is not a build of appimage-keeper's own release workflow; keep the current executable, or pass --insecure to install it anyway";

/**
 * Requires an attestation of `sha256` (lower-case hex) by our release workflow; returns who built
 * it. Anything else (no attestation, one that does not verify, another signer) is
 * SELF_UPDATE_UNVERIFIED with the provenance code of the worst failure in `details`.
 */
export async function requireSelfAttestation(
  settings: AppSettings,
  sha256: string,
  release: { assetName: string; tag: string },
  deps: ResolveDeps,
  rootFor: (name: RootName) => LoadedRoot,
): Promise<BuildIdentity> {
  const signer = selfSigner();
  const endpoint = sourceFor(settings).attestations?.(deps);
  if (!endpoint) {
    throw unverified(
      new ProvenanceError(
        'PROVENANCE_NONE',
        `${release.assetName} comes from a forge that publishes no attestations (only the hub does)`,
      ),
    );
  }
  let listed;
  try {
    listed = await listAttestations(endpoint, sha256);
  } catch (err) {
    if (err instanceof ProvenanceError) throw unverified(err);
    throw err;
  }
  if (listed.kind === 'rate_limited') {
    throw new KeeperError('SELF_UPDATE_RATE_LIMITED', `attestations not checked: ${listed.message}`, {
      hint: 'try again later, or set a hub token',
    });
  }
  const failures: ProvenanceError[] = [];
  const target = { ...signer, sha256, assetName: release.assetName, tag: release.tag };
  for (const entry of listed.entries) {
    try {
      const { bundle } = await entryBundle(deps.ctx.http, entry, deps.signal);
      const checked = checkAttestation(bundle, target, rootFor);
      if (checked.kind === 'build') return checked.identity;
    } catch (err) {
      if (!(err instanceof ProvenanceError)) throw err;
      failures.push(err);
    }
  }
  const worst = worstFailure(failures);
  if (worst) throw unverified(worst);
  throw unverified(
    new ProvenanceError(
      'PROVENANCE_NONE',
      `no build provenance attestation for sha256:${sha256} (${listed.url})`,
    ),
  );
}

function unverified(cause: ProvenanceError): KeeperError {
  return new KeeperError('SELF_UPDATE_UNVERIFIED', `not replacing the executable: ${cause.message}`, {
    hint: HINT,
    cause,
    details: { provenance: cause.provenanceCode },
  });
}
