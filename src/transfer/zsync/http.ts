import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { KeeperError } from '../../core/errors.js';
import { USER_AGENT } from '../../core/version.js';
import { httpError } from '../../http/errors.js';
import { followRedirects, redirectErrorText } from '../../http/open.js';
import type { HttpSettings } from '../../http/settings.js';
import { isTransportTimeout, sendRequest, TransportCode, TransportError } from '../../http/transport.js';
import { zsyncError } from './errors.js';

/** Connection settings and counters shared by every request of one zsync run. */
export interface HttpSession {
  /** The run's network settings. */
  http: HttpSettings;
  /** No byte for this long (headers or body) means the connection stalled. */
  stallTimeoutMs: number;
  /** Fewer bytes per second than this over a stall-timeout window is a stall too (0 = no rule). */
  minBytesPerSec?: number | undefined;
  signal?: AbortSignal | undefined;
  /** HTTP requests sent, redirects included. */
  requests: number;
  /** Response body bytes received (control file and ranges). */
  bytesFetched: number;
}

/** An open response whose body the caller streams (and must consume or destroy). */
export interface OpenResponse {
  /** URL that finally answered, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

/** Drops a response body we will not read, closing its connection (errors after that are moot). */
export function discardBody(body: OpenResponse['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/**
 * Turns what the transport or a body stream throws into a zsync error: aborts, stalls and network
 * failures each get their own code so the caller's warning says what happened.
 */
export function networkError(err: unknown, url: string, signal?: AbortSignal): KeeperError {
  if (err instanceof KeeperError) return err;
  if (signal?.aborted) return zsyncError('ABORTED', 'zsync update aborted', { cause: err });
  if (isTransportTimeout(err))
    return zsyncError('STALLED', `no data from ${url} for too long`, { cause: err });
  if (err instanceof TransportError && err.code === TransportCode.tooSlow)
    return zsyncError('TOO_SLOW', `${url} is too slow: ${err.message}`, { cause: err });
  const message = err instanceof Error ? err.message : String(err);
  return zsyncError('NETWORK', `request to ${url} failed: ${message}`, { cause: err });
}

/**
 * GET through the client's redirect loop, never sending credentials (the loop keeps them to the
 * first origin, and we send none). Resolves once the final response's headers arrived; its body
 * is left to the caller to stream.
 */
export async function openGet(
  session: HttpSession,
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined = session.signal,
): Promise<OpenResponse> {
  const res = await followRedirects(url, {
    phase: 'range',
    headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity', ...headers },
    fail: (code, at, message) =>
      httpError(code, 'range', at, redirectErrorText(code, at, message), {
        hint: 'the update falls back to a full download',
      }),
    exchange: async (current, method, sent) => {
      session.requests++;
      try {
        return await sendRequest(session.http, current, {
          method,
          headers: sent,
          signal,
          headersTimeoutMs: session.stallTimeoutMs,
          bodyTimeoutMs: session.stallTimeoutMs,
          minBytesPerSec: session.minBytesPerSec ?? 0,
        });
      } catch (err) {
        throw networkError(err, current, signal);
      }
    },
  });
  return { url: res.url, status: res.statusCode, headers: res.headers, body: res.body };
}
