/**
 * What the transport throws (or destroys a body with): one Error class whose `code` says what
 * happened, so the metadata client, the downloader and zsync can each map it to their own codes
 * without knowing anything about node's sockets.
 */

import { isCertificateCode } from './cert-error.js';

/** Failure codes of the transport; socket errors keep node's own `E...` code (ECONNRESET, ...). */
export const TransportCode = {
  /** No TCP connection within the connect timeout. */
  connectTimeout: 'TRANSPORT_CONNECT_TIMEOUT',
  /** Connected, but no response head within the headers timeout. */
  headersTimeout: 'TRANSPORT_HEADERS_TIMEOUT',
  /** No body byte for the body (idle) timeout while the consumer was reading. */
  bodyTimeout: 'TRANSPORT_BODY_TIMEOUT',
  /** Fewer bytes than the minimum rate over a body-timeout window while the consumer was reading. */
  tooSlow: 'TRANSPORT_TOO_SLOW',
  /** The connection closed cleanly before the body reached its Content-Length. */
  shortBody: 'TRANSPORT_SHORT_BODY',
  /** The connection closed before the response (head or a body of unknown length) ended. */
  closed: 'TRANSPORT_CLOSED',
  /** The caller's AbortSignal fired. */
  aborted: 'TRANSPORT_ABORTED',
  /** The server sent something that is not HTTP/1.1 (node's HPE_* parser errors). */
  protocol: 'TRANSPORT_PROTOCOL',
  /** The server's TLS certificate was not accepted (untrusted CA, expired, wrong name). */
  certificate: 'TRANSPORT_CERTIFICATE',
  /** The configured proxy refused the connection, could not be found, or opened no tunnel in time. */
  proxyUnreachable: 'TRANSPORT_PROXY_UNREACHABLE',
} as const;

/** Options of a transport failure. */
export interface TransportErrorOptions {
  cause?: unknown;
  /** Body bytes received before the failure (body errors only). */
  received?: number;
}

/** A request or response body that failed below HTTP semantics: connection, timeout, abort. */
export class TransportError extends Error {
  readonly code: string;
  readonly url: string;
  readonly received: number | undefined;

  constructor(code: string, url: string, message: string, options: TransportErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TransportError';
    this.code = code;
    this.url = url;
    this.received = options.received;
  }
}

/** Whether `err` is a transport timeout (connect, headers or body). */
export function isTransportTimeout(err: unknown): boolean {
  if (!(err instanceof TransportError)) return false;
  return (
    err.code === TransportCode.connectTimeout ||
    err.code === TransportCode.headersTimeout ||
    err.code === TransportCode.bodyTimeout
  );
}

/**
 * Wraps an error node's http client emitted (socket error, parser error, hang up) in a
 * TransportError that keeps the system error code, so retry decisions can rely on `code`.
 */
export function fromSocketError(err: unknown, url: string, received?: number): TransportError {
  if (err instanceof TransportError) return err;
  const raw = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  const text = err instanceof Error ? err.message : String(err);
  let code: string = TransportCode.closed;
  if (typeof raw === 'string' && /^E[A-Z0-9_]+$/.test(raw)) code = raw;
  else if (typeof raw === 'string' && raw.startsWith('HPE_')) code = TransportCode.protocol;
  else if (isCertificateCode(raw)) code = TransportCode.certificate;
  return new TransportError(code, url, `${text}${typeof raw === 'string' ? ` (${raw})` : ''}`, {
    cause: err,
    received,
  });
}
