/**
 * The error family of the HTTP client: `HTTP_*` codes whose `details.phase` says which kind of
 * fetch failed, so one code (a redirect loop, a network failure) means the same thing whether
 * it hit a forge API call, a download, a range request, an attestation or self-update.
 */
import { KeeperError, type KeeperErrorOptions } from '../core/errors.js';

/** Which kind of fetch a request belongs to (named in errors as `details.phase`). */
export type HttpPhase = 'api' | 'download' | 'range' | 'attestation' | 'self-update';

/** Failures of the redirect loop itself, the same in every phase. */
export type RedirectCode = 'HTTP_TOO_MANY_REDIRECTS' | 'HTTP_BAD_REDIRECT';

/** Builds an `HTTP_*` error whose details name the phase and the URL. */
export function httpError(
  code: `HTTP_${string}`,
  phase: HttpPhase,
  url: string,
  message: string,
  options: KeeperErrorOptions = {},
): KeeperError {
  return new KeeperError(code, message, { ...options, details: { phase, url, ...options.details } });
}
