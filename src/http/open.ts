/**
 * The one redirect loop of the HTTP client. Every fetch (forge API calls, downloads, zsync and
 * block map ranges, attestations, self-update) opens its response here: at most `maxRedirects`
 * hops, only http and https (an https → http hop is followed, and loses credentials since the
 * origin changed), the credential rule of url-scope.ts re-checked at every hop, userinfo never
 * sent. What one exchange is (retries, timeouts, error mapping) is the caller's `exchange`.
 */
import { discardBody, type TransportResponse } from './transport.js';
import { httpError, type HttpPhase, type RedirectCode } from './errors.js';
import { headerValue, lowerCaseNames } from './headers.js';
import { credentialsFor, withoutUserinfo } from './url-scope.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const DEFAULT_MAX_REDIRECTS = 10;
const DISCARD_LIMIT = 64 * 1024;

/** Sends one request of the loop; `url` has no userinfo and `headers` have lower-case names. */
export type Exchange = (
  url: string,
  method: string,
  headers: Record<string, string>,
) => Promise<TransportResponse>;

/** How to follow one request's redirects. */
export interface FollowOptions {
  phase: HttpPhase;
  /** Default GET; a 303 turns anything but HEAD into GET. */
  method?: string;
  headers?: Record<string, string>;
  /** Default 10; 0 returns the redirect response itself. */
  maxRedirects?: number;
  /**
   * Base URL the credentials (Authorization, Cookie) belong to: after a redirect they are sent
   * only while the URL stays under it. Default: the origin of the first URL.
   */
  credentialsUnder?: string | undefined;
  exchange: Exchange;
  /**
   * Builds the loop's own failures from the first URL and a message that does not name it
   * (default: an `HTTP_*` error naming the phase, see redirectErrorText).
   */
  fail?: (code: RedirectCode, url: string, message: string) => Error;
}

/** A response whose head arrived after redirects; its body is unread. */
export interface FollowedResponse extends TransportResponse {
  /** Exchanges spent on redirects before this response (0 when it answered the first URL). */
  hops: number;
}

/** Sends `url` and follows its redirects; resolves with the final response's head. */
export async function followRedirects(url: string, options: FollowOptions): Promise<FollowedResponse> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const fail =
    options.fail ??
    ((code, at, message) => httpError(code, options.phase, at, redirectErrorText(code, at, message)));
  const first = withoutUserinfo(new URL(url));
  const scope = options.credentialsUnder ?? first.origin;
  let method = (options.method ?? 'GET').toUpperCase();
  let headers = lowerCaseNames(options.headers ?? {});
  let current = first.href;
  for (let hops = 0; ; hops++) {
    headers = credentialsFor(current, scope, headers);
    const res = await options.exchange(current, method, headers);
    const location = headerValue(res.headers, 'location');
    if (!REDIRECT_STATUSES.has(res.statusCode) || !location || maxRedirects === 0) {
      return { ...res, url: current, hops };
    }
    await discardBody(res.body, DISCARD_LIMIT);
    if (hops >= maxRedirects) {
      throw fail('HTTP_TOO_MANY_REDIRECTS', url, `more than ${maxRedirects} redirects`);
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw fail('HTTP_BAD_REDIRECT', url, `${current} redirects to an invalid URL`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw fail('HTTP_BAD_REDIRECT', url, `${current} redirects to unsupported ${next.protocol} URL`);
    }
    if (res.statusCode === 303 && method !== 'HEAD') method = 'GET';
    current = withoutUserinfo(next).href;
  }
}

/** The message of a redirect failure for a reader who does not know the first URL. */
export function redirectErrorText(code: RedirectCode, url: string, message: string): string {
  return code === 'HTTP_TOO_MANY_REDIRECTS' ? `${message} starting at ${url}` : message;
}
