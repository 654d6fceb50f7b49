import type { IncomingHttpHeaders } from 'node:http';
import { discardBody, sendRequest, type TransportResponse } from '../../http/transport.js';
import { followRedirects } from '../../http/open.js';
import type { Attempt } from './attempt.js';
import { DownloadError } from './errors.js';
import { retryAfterMs } from './response-headers.js';
import type { TransferContext } from './transfer-context.js';

/** A response whose headers arrived, after redirects (`url` is the one that answered). */
export type OpenedResponse = TransportResponse;

/** Options for opening one GET. */
export interface OpenOptions {
  headers: Record<string, string>;
  attempt: Attempt;
}

/**
 * Sends a GET through the client's redirect loop (so the final URL is known and nothing but our
 * own headers is ever forwarded). Error statuses become DownloadErrors; 5xx, 408 and 429 are
 * transient. The body of the returned response is unread.
 */
export async function openResponse(
  ctx: Pick<TransferContext, 'http' | 'phase'>,
  url: string,
  options: OpenOptions,
): Promise<OpenedResponse> {
  const res = await followRedirects(url, {
    phase: ctx.phase,
    headers: options.headers,
    fail: (code, at, message) => new DownloadError(code, at, message, { details: { phase: ctx.phase } }),
    exchange: async (current, method, headers) => {
      try {
        // The attempt's own stall timer watches the body; the transport only bounds the connect.
        const sent = await sendRequest(ctx.http, current, {
          method,
          headers,
          signal: options.attempt.signal,
          headersTimeoutMs: 0,
          bodyTimeoutMs: 0,
        });
        options.attempt.touch();
        return sent;
      } catch (err) {
        throw options.attempt.translate(err, current);
      }
    },
  });
  if (res.statusCode >= 400) {
    await discardBody(res.body);
    throw httpStatusError(res.statusCode, res.headers, res.url);
  }
  if (res.statusCode >= 300 || res.statusCode < 200) {
    await discardBody(res.body);
    throw new DownloadError(`DOWNLOAD_HTTP_${res.statusCode}`, res.url, `unexpected HTTP ${res.statusCode}`);
  }
  return { statusCode: res.statusCode, headers: res.headers, body: res.body, url: res.url };
}

// A server asking us to come back later than this is treated as a failure for this run.
const MAX_RETRY_AFTER_MS = 60_000;

function httpStatusError(status: number, headers: IncomingHttpHeaders, url: string): DownloadError {
  const wait = retryAfterMs(headers);
  const code = `DOWNLOAD_HTTP_${status}`;
  if (status === 429 || status === 503) {
    if (wait !== undefined && wait > MAX_RETRY_AFTER_MS) {
      return new DownloadError(
        code,
        url,
        `HTTP ${status}: server asks to retry in ${Math.ceil(wait / 1000)} s`,
        {
          details: { retryAt: new Date(Date.now() + wait).toISOString() },
        },
      );
    }
    return new DownloadError(code, url, `HTTP ${status}`, { transient: true, retryAfterMs: wait });
  }
  const transient = status >= 500 || status === 408;
  return new DownloadError(code, url, `HTTP ${status}`, { transient });
}
