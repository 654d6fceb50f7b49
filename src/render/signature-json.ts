import type { SignatureState } from '../state/types.js';

/** The `signature` object of `list --json` (and `info`): the pinned key and the last verified signature. */
export function signatureJson(s: SignatureState | undefined): Record<string, unknown> | null {
  if (!s) return null;
  const v = s.lastVerified;
  return {
    fingerprint: s.fingerprint,
    pinned_by: s.pinnedBy,
    pinned_at: s.pinnedAt,
    last_verified: v
      ? {
          version: v.version,
          signer_key_id: v.signerKeyId,
          hash_algorithm: v.hashAlgorithm,
          mode: v.mode,
          signed_at: v.signedAt,
          at: v.at,
        }
      : null,
  };
}
