/**
 * Why an OpenPGP input was refused: `malformed` (corrupt or contradictory bytes: treat as a bad
 * signature) or `unsupported` (well-formed, but a version, algorithm or construction we do not
 * implement: never a pass).
 */
export class PgpError extends Error {
  constructor(
    readonly kind: 'malformed' | 'unsupported',
    message: string,
  ) {
    super(message);
    this.name = 'PgpError';
  }
}

/** Shorthand for a malformed-input error. */
export function malformed(message: string): PgpError {
  return new PgpError('malformed', message);
}

/** Shorthand for an unsupported-feature error. */
export function unsupported(message: string): PgpError {
  return new PgpError('unsupported', message);
}
