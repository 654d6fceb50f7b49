import { KeeperError } from '../../core/errors.js';
import type { HttpSettings } from '../../http/settings.js';
import type { HttpSession } from '../zsync/http.js';

/** A fresh session (no requests, no bytes yet) for one delta update. */
export function newSession(
  http: HttpSettings,
  stallTimeoutMs: number,
  signal: AbortSignal | undefined,
  minBytesPerSec = 0,
): HttpSession {
  return { http, stallTimeoutMs, minBytesPerSec, signal, requests: 0, bytesFetched: 0 };
}

/**
 * A failed delta update still cost bandwidth; the caller falls back to a full download and must
 * be able to report both, so the session's counters travel in the error's details. `code` may
 * rename the error (the block map client reports the shared fetcher's errors under its prefix).
 */
export function withTransferCounts(
  err: unknown,
  session: HttpSession,
  code: (code: string) => string = (c) => c,
): unknown {
  if (!(err instanceof KeeperError)) return err;
  return new KeeperError(code(err.code), err.message, {
    hint: err.hint,
    cause: err.cause,
    exitCode: err.exitCode,
    details: { ...err.details, bytesFetched: session.bytesFetched, requests: session.requests },
  });
}
