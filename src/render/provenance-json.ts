/** How `list` shows the attestations verified for an installed asset. */
import type { ProvenanceRecord } from '../state/types.js';

/** The `provenance` object of `list --json` (snake_case like the rest of the document), or null. */
export function provenanceJson(record: ProvenanceRecord | undefined): Record<string, unknown> | null {
  if (!record) return null;
  const { build, release } = record;
  return {
    digest: record.digest,
    predicate_type: build?.predicateType ?? null,
    signer_workflow: build?.signerWorkflow ?? null,
    source_repository: build?.sourceRepository ?? null,
    source_commit: build?.sourceCommit ?? null,
    source_ref: build?.sourceRef ?? null,
    release_attestation: release
      ? { predicate_type: release.predicateType, signer: release.signer, tag: release.tag }
      : null,
    verified_at: record.verifiedAt,
  };
}

/** One word for the table: which attestations verified. */
export function provenanceWord(record: ProvenanceRecord | undefined): string {
  if (!record) return '-';
  return [record.build ? 'build' : '', record.release ? 'release' : ''].filter(Boolean).join('+');
}
