import type { IncomingHttpHeaders } from 'node:http';
import { discardBody, sendRequest, type TransportResponse } from '../../http/transport.js';
import type { Attempt } from './attempt.js';
import { DownloadError } from './errors.js';
import { headerValue, retryAfterMs } from './response-headers.js';

const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A response whose headers arrived, after redirects (`url` is the one that answered). */
export type OpenedResponse = TransportResponse;

/** Options for opening one GET. */
export interface OpenOptions {
  headers: Record<string, string>;
  attempt: Attempt;
}

/** Removes any Authorization header: asset downloads never carry credentials, on any origin. */
export function withoutAuthorization(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    const lower = k.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization' || lower === 'cookie') continue;
    out[k] = v;
  }
  return out;
}

/**
 * Sends a GET and follows up to 10 redirects by hand (so the final URL is known and nothing
 * but our own headers is ever forwarded). Error statuses become DownloadErrors; 5xx, 408 and 429
 * are transient. The body of the returned response is unread.
 */
export async function openResponse(url: string, options: OpenOptions): Promise<OpenedResponse> {
  let current = url;
  for (let hop = 0; ; hop++) {
    let res: TransportResponse;
    try {
      // The attempt's own stall timer watches the body; the transport only bounds the connect.
      res = await sendRequest(current, {
        method: 'GET',
        headers: options.headers,
        signal: options.attempt.signal,
        headersTimeoutMs: 0,
        bodyTimeoutMs: 0,
      });
    } catch (err) {
      throw options.attempt.translate(err, current);
    }
    options.attempt.touch();
    const location = headerValue(res.headers, 'location');
    if (REDIRECT_STATUSES.has(res.statusCode) && location) {
      await discardBody(res.body);
      if (hop + 1 > MAX_REDIRECTS) {
        throw new DownloadError('DOWNLOAD_REDIRECTS', url, `more than ${MAX_REDIRECTS} redirects`);
      }
      const next = new URL(location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new DownloadError('DOWNLOAD_REDIRECT_INVALID', url, `redirect to unsupported URL ${next.href}`);
      }
      current = next.href;
      continue;
    }
    if (res.statusCode >= 400) {
      await discardBody(res.body);
      throw httpStatusError(res.statusCode, res.headers, current);
    }
    if (res.statusCode >= 300 || res.statusCode < 200) {
      await discardBody(res.body);
      throw new DownloadError(
        `DOWNLOAD_HTTP_${res.statusCode}`,
        current,
        `unexpected HTTP ${res.statusCode}`,
      );
    }
    return { statusCode: res.statusCode, headers: res.headers, body: res.body, url: current };
  }
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
