import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { KeeperError } from '../../core/errors.js';
import { USER_AGENT } from '../../core/version.js';
import {
  isTransportTimeout,
  sendRequest,
  TransportCode,
  TransportError,
  type TransportResponse,
} from '../../http/transport.js';
import { zsyncError } from './errors.js';

/** Connection settings and counters shared by every request of one zsync run. */
export interface HttpSession {
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

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** First value of a response header. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
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
 * GET with redirects followed by hand (the transport does not), never sending credentials.
 * Resolves once the final response's headers arrived; its body is left to the caller to stream.
 */
export async function openGet(
  session: HttpSession,
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined = session.signal,
): Promise<OpenResponse> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const parsed = new URL(current);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw zsyncError('NETWORK', `unsupported URL scheme in ${current}`);
    let res: TransportResponse;
    session.requests++;
    try {
      res = await sendRequest(current, {
        method: 'GET',
        headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity', ...headers },
        signal,
        headersTimeoutMs: session.stallTimeoutMs,
        bodyTimeoutMs: session.stallTimeoutMs,
        minBytesPerSec: session.minBytesPerSec ?? 0,
      });
    } catch (err) {
      throw networkError(err, current, signal);
    }
    const location = header(res.headers, 'location');
    if (!REDIRECTS.has(res.statusCode) || location === undefined) {
      return { url: current, status: res.statusCode, headers: res.headers, body: res.body };
    }
    discardBody(res.body);
    if (hop >= MAX_REDIRECTS) throw zsyncError('NETWORK', `too many redirects from ${url}`);
    current = new URL(location, current).toString();
  }
}
