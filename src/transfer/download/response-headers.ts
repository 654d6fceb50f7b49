import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from '../../http/headers.js';

/** Body length from Content-Length, undefined when absent, invalid or the body is content-encoded. */
export function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const encoding = headerValue(headers, 'content-encoding');
  // An encoded body's length says nothing about the file we write.
  if (encoding && encoding.toLowerCase() !== 'identity') return undefined;
  const raw = headerValue(headers, 'content-length');
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/** Whether the server says it serves byte ranges. */
export function acceptsByteRanges(headers: IncomingHttpHeaders): boolean {
  const v = headerValue(headers, 'accept-ranges');
  return v !== undefined && v.split(',').some((t) => t.trim().toLowerCase() === 'bytes');
}

/**
 * The validator to send in If-Range: a strong ETag, else Last-Modified. Weak ETags are never
 * allowed in If-Range (RFC 9110 13.1.5), so they are skipped.
 */
export function rangeValidator(headers: IncomingHttpHeaders): string | undefined {
  const etag = headerValue(headers, 'etag');
  if (etag && !etag.startsWith('W/')) return etag;
  return headerValue(headers, 'last-modified');
}

/** Retry-After (seconds or HTTP date) as a delay in ms from `now`; undefined when absent or invalid. */
export function retryAfterMs(headers: IncomingHttpHeaders, now: number = Date.now()): number | undefined {
  const raw = headerValue(headers, 'retry-after');
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
