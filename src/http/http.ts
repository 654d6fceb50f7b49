/**
 * The HTTP client for whole-body requests (release APIs, HEAD checks, proxies, attestations):
 * redirects go through the one loop in open.ts, every request has a deadline, and idempotent
 * requests survive a dropped connection or a passing 5xx.
 */
import { KeeperError } from '../core/errors.js';
import { USER_AGENT } from '../core/version.js';
import {
  discardBody,
  sendRequest,
  TransportCode,
  TransportError,
  type TransportResponse,
} from './transport.js';
import { certificateMessage } from './cert-error.js';
import { hasDefaultRoute, isNoNetworkError } from './routes.js';
import { parseBoundedJson } from './json-limits.js';
import { httpError, type HttpPhase } from './errors.js';
import { lowerCaseNames } from './headers.js';
import { followRedirects } from './open.js';
import type { HttpSettings } from './settings.js';

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
   * Called once with the final status; the function it returns gets the body chunk by chunk, as
   * it arrives, instead of the response keeping it (`text` and `body` are then empty), so a large
   * body is never held whole. `maxBodyBytes` and the deadline still apply; what it throws ends the
   * request with that error.
   */
  sink?: (status: number) => BodySink | undefined;
  /**
   * Base URL the credentials (Authorization, Cookie) belong to: after a redirect they are sent only
   * while the URL stays under it (see isUnderBase). Default: the origin of the first URL.
   */
  credentialsUnder?: string | undefined;
  /** What kind of fetch this is, named in errors (default api). */
  phase?: HttpPhase;
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

/** Takes one chunk of a streamed body. */
export type BodySink = (chunk: Buffer) => void;

const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
const DISCARD_LIMIT = 64 * 1024;

/** Sends a request, following redirects and retrying transient failures. */
export async function request(
  http: HttpSettings,
  url: string,
  options: HttpRequestOptions = {},
): Promise<HttpResponse> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const phase = options.phase ?? 'api';
  const headers = lowerCaseNames(options.headers ?? {});
  headers['user-agent'] ??= USER_AGENT;
  let requests = 0;
  const res = await followRedirects(url, {
    phase,
    method: options.method ?? 'GET',
    headers,
    maxRedirects: options.maxRedirects,
    credentialsUnder: options.credentialsUnder,
    exchange: (current, method, headers) =>
      sendWithRetries(http, current, method, headers, { signal, options, timeoutMs, phase }, () => {
        requests++;
      }),
  });
  const body = await readBody(res, res.url, options, signal, timeoutMs, phase);
  return buildResponse(res.statusCode, res.headers, res.url, requests, body);
}

type RawResponse = TransportResponse;

interface ExchangeContext {
  signal: AbortSignal;
  options: HttpRequestOptions;
  timeoutMs: number;
  phase: HttpPhase;
}

async function sendWithRetries(
  http: HttpSettings,
  url: string,
  method: string,
  headers: Record<string, string>,
  ex: ExchangeContext,
  count: () => void,
): Promise<RawResponse> {
  const { signal, options, timeoutMs, phase } = ex;
  const retries = IDEMPOTENT.has(method) ? (options.retries ?? 2) : 0;
  for (let attempt = 0; ; attempt++) {
    count();
    let res: RawResponse;
    try {
      res = await sendRequest(http, url, { method, headers, signal });
    } catch (err) {
      if (signal.aborted) throw abortError(url, options.signal, timeoutMs, phase, err);
      // Already a tool error (a proxy's 407): another attempt would get the same answer.
      if (err instanceof KeeperError) throw err;
      if (err instanceof TransportError && err.code === TransportCode.certificate) {
        throw httpError('HTTP_CERTIFICATE', phase, url, certificateMessage(url, err.message), { cause: err });
      }
      // Offline (no default route, or nothing has answered this run and the resolver cannot be
      // reached), no retry can succeed: fail now, so an offline run ends at once.
      // Likewise when the configured proxy, the only way out, cannot be reached.
      if (
        attempt >= retries ||
        (err instanceof TransportError && err.code === TransportCode.proxyUnreachable) ||
        http.reach.silentlyUnreachable(err) ||
        (isNoNetworkError(err) && !hasDefaultRoute())
      ) {
        throw httpError('HTTP_NETWORK', phase, url, `request to ${url} failed: ${errorText(err)}`, {
          cause: err,
        });
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
  phase: HttpPhase,
): Promise<Buffer> {
  if (options.discardBody) {
    await discardBody(res.body, DISCARD_LIMIT);
    return Buffer.alloc(0);
  }
  const limit = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const sink = options.sink?.(res.statusCode);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        res.body.destroy();
        throw httpError(
          'HTTP_BODY_TOO_LARGE',
          phase,
          url,
          `response from ${url} is larger than ${limit} bytes`,
        );
      }
      if (sink) sink(chunk);
      else chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof KeeperError) throw err;
    if (signal.aborted) throw abortError(url, options.signal, timeoutMs, phase, err);
    throw httpError(
      'HTTP_NETWORK',
      phase,
      url,
      `reading the response from ${url} failed: ${errorText(err)}`,
      {
        cause: err,
      },
    );
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

function abortError(
  url: string,
  external: AbortSignal | undefined,
  timeoutMs: number,
  phase: HttpPhase,
  cause: unknown,
): KeeperError {
  if (external?.aborted) return new KeeperError('ABORTED', `request to ${url} was cancelled`, { cause });
  return httpError('HTTP_TIMEOUT', phase, url, `request to ${url} timed out after ${timeoutMs / 1000} s`, {
    cause,
  });
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as NodeJS.ErrnoException).code;
  const inner = err.cause instanceof Error ? err.cause.message : '';
  // The transport's message already carries node's text and code: say each part once.
  const parts: string[] = [];
  for (const part of [err.message, code, inner]) {
    if (part && !parts.some((p) => p.includes(part))) parts.push(part);
  }
  return parts.join(' / ');
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
