/** JSON responses of the metadata APIs, with a strong ETag, Last-Modified and 304 support. */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { isNotModified } from './conditional.js';
import type { Outgoing } from './send-body.js';

/** A 200 JSON answer, or 304 when the request's validators still match. */
export function jsonResponse(
  value: unknown,
  requestHeaders: IncomingHttpHeaders,
  lastModified?: Date,
  extra: OutgoingHttpHeaders = {},
): Outgoing {
  const body = Buffer.from(JSON.stringify(value));
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 40)}"`;
  const headers: OutgoingHttpHeaders = {
    'content-type': 'application/json; charset=utf-8',
    etag,
    'cache-control': 'private, max-age=60, s-maxage=60',
    vary: 'Accept, Authorization',
    ...extra,
  };
  if (lastModified) headers['last-modified'] = lastModified.toUTCString();
  if (isNotModified(requestHeaders, { etag, lastModified })) {
    delete headers['content-type'];
    return { status: 304, headers };
  }
  return { status: 200, headers, body };
}

/** A JSON error body with the given status. */
export function jsonError(status: number, value: unknown, extra: OutgoingHttpHeaders = {}): Outgoing {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extra },
    body: Buffer.from(JSON.stringify(value)),
  };
}
