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
  GIVE_UP_OPTION,
  isProxyAuthRefusal,
  isProxyOwnAnswer,
  isSocksAuthRefusal,
  proxyAuthRequired,
  proxyRefused,
  readableByProxy,
  withoutCredentials,
} from './proxy-request.js';
import { proxyFor, redactProxy } from './proxy-env.js';
import type { KeeperError } from '../core/errors.js';
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
// Failures to reach the proxy itself before any connection to it existed: no path out.
const PROXY_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
]);

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
    // The proxy this request goes through, whatever the scheme: reaching it is reaching out at all.
    const via = http.proxy ? proxyFor(http.proxy, target) : undefined;
    let connected = false;
    // Aborted when this request is given up on: closes a proxy connection still opening a tunnel.
    const giveUp = new AbortController();
    const req: ClientRequest = send(target, {
      method,
      ...{ [GIVE_UP_OPTION]: giveUp.signal },
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
      giveUp.abort();
      reject(err);
    };
    const onAbort = (): void =>
      fail(new TransportError(TransportCode.aborted, url, 'request aborted', { cause: signal?.reason }));
    const waitFor = (ms: number, code: string, what: string): void => {
      if (timer) clearTimeout(timer);
      if (ms > 0)
        timer = setTimeout(() => fail(new TransportError(code, url, `${what} within ${ms} ms`)), ms);
    };
    const waitForConnection = (): void =>
      via
        ? waitFor(
            connectTimeoutMs,
            TransportCode.proxyUnreachable,
            `no connection through ${redactProxy(via)}`,
          )
        : waitFor(connectTimeoutMs, TransportCode.connectTimeout, 'no connection');
    // A tunnel (CONNECT, SOCKS) hands the request its socket only once it is open; until then the
    // connect timeout covers reaching the proxy and its answer, so a silent proxy cannot hang a run.
    if (via && (target.protocol === 'https:' || via.protocol.startsWith('socks'))) waitForConnection();

    signal?.addEventListener('abort', onAbort, { once: true });
    // The proxy's answer to CONNECT: a failed one is replayed as this request's response.
    let tunnelStatus: number | undefined;
    req.once('proxyConnect', (answer: { statusCode?: number }) => (tunnelStatus = answer.statusCode));
    req.once('socket', (socket: Socket) => {
      if (!socket.connecting) {
        connected = true;
        waitFor(headersTimeoutMs, TransportCode.headersTimeout, 'no response head');
        return;
      }
      waitForConnection();
      socket.once('connect', () => {
        connected = true;
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
      if (via && !connected && PROXY_DOWN_CODES.has(mapped.code)) {
        fail(
          new TransportError(
            TransportCode.proxyUnreachable,
            url,
            `${redactProxy(via)} cannot be reached: ${mapped.message}`,
            { cause: err },
          ),
        );
        return;
      }
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
      const refusal = http.proxy
        ? proxyRefusal(http, target, res, tunnelStatus, proxy !== undefined)
        : undefined;
      if (refusal) {
        res.destroy();
        req.destroy();
        reject(refusal);
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

/**
 * The proxy's own refusal of a request, when the response is one: credentials refused (407, or a
 * 401 to CONNECT), a CONNECT answered with anything but 2xx (https-proxy-agent replays that answer
 * as the response), or on plain http the proxy's own error page. Undefined: the origin answered.
 */
function proxyRefusal(
  http: HttpSettings,
  target: URL,
  res: IncomingMessage,
  tunnelStatus: number | undefined,
  readable: boolean,
): KeeperError | undefined {
  const status = res.statusCode ?? 0;
  if (isProxyAuthRefusal(status, tunnelStatus)) return proxyAuthRequired(http, target);
  const reason = (res.statusMessage ?? '').slice(0, 100);
  if (tunnelStatus !== undefined && (tunnelStatus < 200 || tunnelStatus > 299)) {
    return proxyRefused(http, target, tunnelStatus, reason);
  }
  if (readable && status >= 400 && isProxyOwnAnswer(res.headers))
    return proxyRefused(http, target, status, reason);
  return undefined;
}

/** Body length the head promises, when there is a body whose length it states. */
function announcedLength(method: string, res: IncomingMessage): number | undefined {
  const status = res.statusCode ?? 0;
  if (method === 'HEAD' || status === 204 || status === 304 || status < 200) return undefined;
  const raw = res.headers['content-length'];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}
