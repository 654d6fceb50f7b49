import { KeeperError } from '../../core/errors.js';
import { certificateMessage } from '../../http/cert-error.js';
import { TransportCode } from '../../http/transport-errors.js';

/** Options of a download failure: whether another attempt may succeed and when to make it. */
export interface DownloadErrorOptions {
  transient?: boolean;
  /** Server-requested delay (Retry-After) before the next attempt. */
  retryAfterMs?: number;
  cause?: unknown;
  hint?: string;
  details?: Record<string, unknown>;
}

/**
 * A failed download or download attempt. `transient` says whether retrying (and resuming) may help;
 * the message always names the URL.
 */
export class DownloadError extends KeeperError {
  readonly transient: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(code: string, url: string, message: string, options: DownloadErrorOptions = {}) {
    super(code, `${message} (${url})`, {
      hint: options.hint,
      cause: options.cause,
      details: { url, ...options.details },
    });
    this.name = 'DownloadError';
    this.transient = options.transient ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Internal signal that the server does not honour Range requests correctly; the segmented
 * downloader answers it by falling back to one plain GET.
 */
export class RangeNotHonouredError extends DownloadError {
  constructor(url: string, message: string) {
    super('DOWNLOAD_RANGE_INVALID', url, message, { transient: true });
    this.name = 'RangeNotHonouredError';
  }
}

// Socket-level failures worth another attempt; anything else from the system (ENOSPC, EACCES,
// ENOTFOUND) will not get better by retrying.
const TRANSIENT_NETWORK_CODES = new Set<string>([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  TransportCode.closed,
  TransportCode.connectTimeout,
  TransportCode.headersTimeout,
  TransportCode.bodyTimeout,
]);

/** The error for a response body that closed before its end without saying why (transient). */
export function bodyClosedEarly(): Error {
  return Object.assign(new Error('response body closed before its end'), { code: TransportCode.closed });
}

/** Turns whatever a request or body stream threw into a DownloadError with a clear code. */
export function classifyNetworkError(err: unknown, url: string): DownloadError {
  if (err instanceof DownloadError) return err;
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  const text = err instanceof Error ? err.message : String(err);
  if (code === TransportCode.certificate) {
    return new DownloadError('DOWNLOAD_CERTIFICATE', url, certificateMessage(url, text), {
      transient: false,
      cause: err,
    });
  }
  if (code === TransportCode.shortBody) {
    return new DownloadError('DOWNLOAD_SHORT', url, `body shorter than its Content-Length: ${text}`, {
      transient: true,
      cause: err,
    });
  }
  if (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code)) {
    return new DownloadError('DOWNLOAD_NETWORK', url, `connection failed: ${text}`, {
      transient: true,
      cause: err,
    });
  }
  if (typeof code === 'string' && code.startsWith('TRANSPORT_')) {
    return new DownloadError('DOWNLOAD_NETWORK', url, `HTTP client error: ${text}`, {
      transient: false,
      cause: err,
    });
  }
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    return new DownloadError(`DOWNLOAD_${code}`, url, text, { transient: false, cause: err });
  }
  return new DownloadError('DOWNLOAD_FAILED', url, text, { transient: false, cause: err });
}
