/**
 * A small HTTP client for metadata requests (release APIs, HEAD checks, proxies): redirects are
 * followed by hand so credentials never leave the scope they were given for, every request has a deadline,
 * and idempotent requests survive a dropped connection or a passing 5xx.
 */
import { KeeperError } from '../core/errors.js';
import { USER_AGENT } from '../core/version.js';
import { discardBody, sendRequest, type TransportResponse } from './transport.js';
import { parseBoundedJson } from './json-limits.js';
import { isUnderBase } from './url-scope.js';

/** Options for one metadata request. */
export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Deadline for the whole exchange, redirects and body included (default 30 s). */
  timeoutMs?: number;
  /** Default 10; 0 returns the redirect response itself. */
  maxRedirects?: number;
  /** Extra attempts after a connection error or 5xx on GET/HEAD (default 2). */
  retries?: number;
  /** Bodies larger than this fail with HTTP_BODY_TOO_LARGE (default 16 MiB). */
  maxBodyBytes?: number;
  /** Read at most a few KiB and drop the rest (probes that only need headers). */
  discardBody?: boolean;
  /**
   * Base URL the credentials (Authorization, Cookie) belong to: after a redirect they are sent only
   * while the URL stays under it (see isUnderBase). Default: the origin of the first URL.
   */
  credentialsUnder?: string;
}

/** A fully read response. */
export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** URL of the final response after redirects. */
  url: string;
  /** Number of HTTP exchanges spent, retries and redirects included. */
  requests: number;
  text: string;
  /** The body's bytes, for binary answers (`text` is their UTF-8 reading). */
  body: Buffer;
  /**
   * Parses the body as JSON; throws HTTP_BAD_JSON naming the URL when it is not, and
   * HTTP_JSON_TOO_DEEP / HTTP_JSON_TOO_LARGE (before parsing) for hostile shapes.
   */
  json(): unknown;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
const DISCARD_LIMIT = 64 * 1024;

/** Sends a request, following redirects and retrying transient failures. */
export async function request(url: string, options: HttpRequestOptions = {}): Promise<HttpResponse> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let method = (options.method ?? 'GET').toUpperCase();
  const maxRedirects = options.maxRedirects ?? 10;
  let headers = withDefaults(options.headers ?? {});
  // Credentials belong to the scope they were given for; a redirect out of it loses them for good.
  const credentialScope = options.credentialsUnder ?? new URL(url).origin;
  let current = url;
  let requests = 0;
  for (let redirects = 0; ; redirects++) {
    const res = await sendWithRetries(current, method, headers, signal, options, timeoutMs, () => {
      requests++;
    });
    const location = res.headers.location;
    if (!REDIRECT_STATUSES.has(res.statusCode) || !location || maxRedirects === 0) {
      const body = await readBody(res, current, options, signal, timeoutMs);
      return buildResponse(res.statusCode, res.headers, current, requests, body);
    }
    await discardBody(res.body, DISCARD_LIMIT);
    if (redirects >= maxRedirects) {
      throw new KeeperError(
        'HTTP_TOO_MANY_REDIRECTS',
        `more than ${maxRedirects} redirects starting at ${url}`,
      );
    }
    const next = new URL(location, current);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new KeeperError('HTTP_BAD_REDIRECT', `${current} redirects to unsupported ${next.protocol} URL`);
    }
    if (!isUnderBase(next.toString(), credentialScope)) headers = withoutCredentials(headers);
    if (res.statusCode === 303 && method !== 'HEAD') method = 'GET';
    current = next.toString();
  }
}

type RawResponse = TransportResponse;

async function sendWithRetries(
  url: string,
  method: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  options: HttpRequestOptions,
  timeoutMs: number,
  count: () => void,
): Promise<RawResponse> {
  const retries = IDEMPOTENT.has(method) ? (options.retries ?? 2) : 0;
  for (let attempt = 0; ; attempt++) {
    count();
    let res: RawResponse;
    try {
      res = await sendRequest(url, { method, headers, signal });
    } catch (err) {
      if (signal.aborted) throw abortError(url, options.signal, timeoutMs, err);
      if (attempt >= retries) {
        throw new KeeperError('HTTP_NETWORK', `request to ${url} failed: ${errorText(err)}`, { cause: err });
      }
      await backoff(attempt, signal);
      continue;
    }
    if (RETRY_STATUSES.has(res.statusCode) && attempt < retries) {
      await discardBody(res.body, DISCARD_LIMIT);
      await backoff(attempt, signal);
      continue;
    }
    return res;
  }
}

async function readBody(
  res: RawResponse,
  url: string,
  options: HttpRequestOptions,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<Buffer> {
  if (options.discardBody) {
    await discardBody(res.body, DISCARD_LIMIT);
    return Buffer.alloc(0);
  }
  const limit = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        res.body.destroy();
        throw new KeeperError('HTTP_BODY_TOO_LARGE', `response from ${url} is larger than ${limit} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof KeeperError) throw err;
    if (signal.aborted) throw abortError(url, options.signal, timeoutMs, err);
    throw new KeeperError('HTTP_NETWORK', `reading the response from ${url} failed: ${errorText(err)}`, {
      cause: err,
    });
  }
  return Buffer.concat(chunks);
}

function buildResponse(
  status: number,
  raw: RawResponse['headers'],
  url: string,
  requests: number,
  body: Buffer,
): HttpResponse {
  const text = body.toString('utf8');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    status,
    headers,
    url,
    requests,
    text,
    body,
    json(): unknown {
      return parseBoundedJson(text, url, status);
    },
  };
}

function withDefaults(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  out['user-agent'] ??= USER_AGENT;
  return out;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  delete out.authorization;
  delete out.cookie;
  delete out['proxy-authorization'];
  return out;
}

function abortError(
  url: string,
  external: AbortSignal | undefined,
  timeoutMs: number,
  cause: unknown,
): KeeperError {
  if (external?.aborted) return new KeeperError('ABORTED', `request to ${url} was cancelled`, { cause });
  return new KeeperError('HTTP_TIMEOUT', `request to ${url} timed out after ${timeoutMs / 1000} s`, {
    cause,
  });
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const inner = err.cause instanceof Error ? err.cause.message : '';
  return [err.message, code, inner].filter(Boolean).join(' / ');
}

async function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = 200 * 3 ** attempt;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
