/**
 * The one HTTP transport of the tool: a thin layer over node's own http/https clients with
 * keep-alive agents, an AbortSignal, connect/headers/body timeouts, and failures that carry
 * stable codes (see transport-errors.ts). It sends one request and returns the response head
 * with an unread body; redirects and credentials are open.ts's business, retries the callers'.
 *
 * Why not undici: its WASM parser alone lifts a process to ~100 MB peak RSS (see
 * docs/decisions.md), and node's built-in parser is fast enough to saturate a loopback link.
 */
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import type { HttpSettings } from './settings.js';
import {
  isProxyAuthRefusal,
  isSocksAuthRefusal,
  proxyAuthRequired,
  readableByProxy,
  withoutCredentials,
} from './proxy-request.js';
import { ResponseBody } from './transport-body.js';
import { fromSocketError, TransportCode, TransportError } from './transport-errors.js';

export { discardBody } from './transport-body.js';
export { isTransportTimeout, TransportCode, TransportError } from './transport-errors.js';

/** One request. */
export interface TransportOptions {
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Time from having a connection to the response head (default 300 s). */
  headersTimeoutMs?: number;
  /** Longest silence while the body is being read (default 300 s; 0 = none). */
  bodyTimeoutMs?: number;
  /**
   * Fewer body bytes per second than this over a `bodyTimeoutMs` window, while the consumer is
   * reading, fails the body with TRANSPORT_TOO_SLOW (default 0: no rule).
   */
  minBytesPerSec?: number;
}

/** A response whose head arrived; `body` must be read to its end or destroyed. */
export interface TransportResponse {
  statusCode: number;
  /** Lower-case names, as node's parser gives them. */
  headers: IncomingHttpHeaders;
  body: Readable;
  /** The URL this response answers (the request's; redirects are not followed). */
  url: string;
}

const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;
const DEFAULT_BODY_TIMEOUT_MS = 300_000;
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Sends one HTTP(S) request and resolves once the response head arrived. Rejects with a
 * TransportError on connection failures, timeouts and aborts. An idempotent request whose
 * reused keep-alive socket turns out to be closed by the server is sent once more on another
 * connection, since the server never saw it.
 */
export async function sendRequest(
  http: HttpSettings,
  url: string,
  options: TransportOptions = {},
): Promise<TransportResponse> {
  // The proxy agents (and their libraries) load only for a run that sends through a proxy.
  await http.ready?.(new URL(url));
  try {
    return await sendOnce(http, url, options);
  } catch (err) {
    if (!(err instanceof StaleSocketError)) throw err;
    return sendOnce(http, url, options, false);
  }
}

/** Marks a failure on a reused socket before any response byte: worth one more try. */
class StaleSocketError extends TransportError {}

function sendOnce(
  http: HttpSettings,
  url: string,
  options: TransportOptions,
  mayRetry = true,
): Promise<TransportResponse> {
  const target = new URL(url);
  // Userinfo in a URL (from a forge, a script, a redirect) would go out as Basic auth to that host;
  // credentials are only ever sent as the headers a caller scoped to a base.
  target.username = '';
  target.password = '';
  const method = (options.method ?? 'GET').toUpperCase();
  const signal = options.signal;
  const connectTimeoutMs = http.connectTimeoutMs;
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;

  return new Promise<TransportResponse>((resolve, reject) => {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      reject(new TransportError(TransportCode.protocol, url, `unsupported URL scheme ${target.protocol}`));
      return;
    }
    if (signal?.aborted) {
      reject(new TransportError(TransportCode.aborted, url, 'request aborted', { cause: signal.reason }));
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const proxy = readableByProxy(http, target);
    const req: ClientRequest = send(target, {
      method,
      // A plain-http request through a proxy is readable by it: the token and cookies stay home.
      headers: proxy ? withoutCredentials(options.headers) : options.headers,
      agent: http.agentFor(target),
    });
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    let body: ResponseBody | undefined;

    const stopWaiting = (): void => {
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: TransportError): void => {
      if (settled) return;
      stopWaiting();
      req.destroy();
      reject(err);
    };
    const onAbort = (): void =>
      fail(new TransportError(TransportCode.aborted, url, 'request aborted', { cause: signal?.reason }));
    const waitFor = (ms: number, code: string, what: string): void => {
      if (timer) clearTimeout(timer);
      if (ms > 0)
        timer = setTimeout(() => fail(new TransportError(code, url, `${what} within ${ms} ms`)), ms);
    };

    signal?.addEventListener('abort', onAbort, { once: true });
    // The proxy's answer to CONNECT: a failed one is replayed as this request's response.
    let tunnelStatus: number | undefined;
    req.once('proxyConnect', (answer: { statusCode?: number }) => (tunnelStatus = answer.statusCode));
    req.once('socket', (socket: Socket) => {
      if (!socket.connecting) {
        waitFor(headersTimeoutMs, TransportCode.headersTimeout, 'no response head');
        return;
      }
      waitFor(connectTimeoutMs, TransportCode.connectTimeout, 'no connection');
      socket.once('connect', () => {
        http.reach.noteAnswer();
        if (!settled) waitFor(headersTimeoutMs, TransportCode.headersTimeout, 'no response head');
      });
    });
    // Errors after the head belong to the body; before it, they fail the request.
    req.on('error', (err: unknown) => {
      http.reach.noteError(err);
      if (body) {
        body.noteSocketError(err);
        return;
      }
      if (http.proxy && isSocksAuthRefusal(err)) {
        if (settled) return;
        stopWaiting();
        req.destroy();
        reject(proxyAuthRequired(http, target));
        return;
      }
      const mapped = fromSocketError(err, url);
      if (mayRetry && req.reusedSocket && IDEMPOTENT.has(method) && STALE_SOCKET_CODES.has(mapped.code)) {
        fail(new StaleSocketError(mapped.code, url, mapped.message, { cause: err }));
        return;
      }
      fail(mapped);
    });
    req.once('response', (res: IncomingMessage) => {
      if (settled) {
        res.destroy();
        return;
      }
      stopWaiting();
      http.reach.noteAnswer();
      if (http.proxy && isProxyAuthRefusal(res.statusCode ?? 0, tunnelStatus)) {
        res.destroy();
        req.destroy();
        reject(proxyAuthRequired(http, target));
        return;
      }
      body = new ResponseBody(res, req, {
        url,
        expectedLength: announcedLength(method, res),
        idleTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
        minBytesPerSec: options.minBytesPerSec ?? 0,
        signal,
      });
      resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body, url });
    });
    req.end();
  });
}

/** Body length the head promises, when there is a body whose length it states. */
function announcedLength(method: string, res: IncomingMessage): number | undefined {
  const status = res.statusCode ?? 0;
  if (method === 'HEAD' || status === 204 || status === 304 || status < 200) return undefined;
  const raw = res.headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}
