/** The stable error codes of provenance checking and how each one is raised. */
import { KeeperError } from '../../core/errors.js';

/** Every provenance failure, most alarming first (the order picks which one a run reports). */
export const PROVENANCE_CODES = [
  'PROVENANCE_INVALID',
  'PROVENANCE_SUBJECT',
  'PROVENANCE_IDENTITY',
  'PROVENANCE_STALE_ROOT',
  'PROVENANCE_NONE',
  'PROVENANCE_NO_DIGEST',
] as const;

/** One provenance failure code. */
export type ProvenanceCode = (typeof PROVENANCE_CODES)[number];

/** Codes that fail the app even under `provenance: warn`: the attestation itself is wrong. */
export const ALWAYS_FATAL: ReadonlySet<ProvenanceCode> = new Set([
  'PROVENANCE_INVALID',
  'PROVENANCE_SUBJECT',
]);

const HINTS: Record<ProvenanceCode, string> = {
  PROVENANCE_INVALID:
    'the attestation does not verify: it was altered or is not what the hub signed; the file was not installed',
  PROVENANCE_SUBJECT: 'the attestation is about other bytes than this asset; the file was not installed',
  PROVENANCE_IDENTITY:
    'the attestation was signed by another repository or workflow; check provenance_signer if the project builds elsewhere',
  PROVENANCE_STALE_ROOT:
    'the attestation is signed by an authority this build of appimage-keeper does not know yet: update appimage-keeper',
  PROVENANCE_NONE:
    'the project publishes no attestation for this asset; set provenance: warn or off for this app',
  PROVENANCE_NO_DIGEST:
    'the hub published no SHA-256 digest for the asset, so no attestation can be looked up; set provenance: warn or off',
};

/** A provenance failure with its code and a hint that says what the user can do. */
export class ProvenanceError extends KeeperError {
  readonly provenanceCode: ProvenanceCode;

  constructor(code: ProvenanceCode, message: string, details?: Record<string, unknown>) {
    super(code, message, { hint: HINTS[code], ...(details ? { details } : {}) });
    this.name = 'ProvenanceError';
    this.provenanceCode = code;
  }
}

/** The attestation lookup was rate-limited under `provenance: require`: try again after `retryAt`. */
export class ProvenanceRateLimited extends KeeperError {
  constructor(
    readonly retryAt: Date,
    message: string,
  ) {
    super('RATE_LIMITED', message);
    this.name = 'ProvenanceRateLimited';
  }
}

/** The most alarming of several failures (INVALID before SUBJECT before IDENTITY ...). */
export function worstFailure(errors: readonly ProvenanceError[]): ProvenanceError | undefined {
  return [...errors].sort(
    (a, b) => PROVENANCE_CODES.indexOf(a.provenanceCode) - PROVENANCE_CODES.indexOf(b.provenanceCode),
  )[0];
}

/**
 * A value read from a certificate, statement or answer, capped for a message (the CLI escapes
 * what reaches the terminal; this keeps a hostile attestation from filling the error with
 * kilobytes). Control characters are kept so the CLI can show them escaped.
 */
export function shown(value: string | undefined, max = 200): string {
  if (value === undefined) return '(none)';
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
