/** Answers GET/HEAD of a stored asset: validators, 304s, single and multiple ranges, 416. */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { StoredAsset } from './body-source.js';
import { ifRangeMatches, isNotModified } from './conditional.js';
import { multipartByteranges } from './multipart.js';
import { parseRange, type ByteRange } from './ranges.js';
import type { Outgoing } from './send-body.js';
import type { Fault } from './types.js';

/** A range that differs from the one served, for the wrongContentRange fault. */
function misplaced(range: ByteRange, size: number): ByteRange {
  if (range.end + 1 < size) return { start: range.start + 1, end: range.end + 1 };
  if (range.start > 0) return { start: range.start - 1, end: range.end - 1 };
  return { start: range.start, end: Math.max(range.start, range.end - 1) };
}

function text(status: number, message: string, headers: OutgoingHttpHeaders = {}): Outgoing {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
    body: Buffer.from(`${message}\n`),
  };
}

/** The response for `method` on `asset`, honouring the range-related parts of `fault`. */
export async function assetResponse(
  asset: StoredAsset,
  method: string,
  headers: IncomingHttpHeaders,
  fault: Fault | undefined,
): Promise<Outgoing> {
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
  let snap;
  try {
    snap = await asset.snapshot();
  } catch {
    return text(404, 'Not Found');
  }
  const base: OutgoingHttpHeaders = { 'content-type': snap.contentType };
  if (!fault?.noRanges) base['accept-ranges'] = 'bytes';
  if (snap.etag) base.etag = snap.etag;
  if (snap.lastModified) base['last-modified'] = snap.lastModified.toUTCString();

  if (isNotModified(headers, snap)) return { status: 304, headers: base };

  const full: Outgoing = {
    status: 200,
    headers: base,
    body: { length: snap.size, chunks: snap.read(0, snap.size - 1) },
  };
  if (fault?.noRanges || fault?.ignoreRange) return full;
  const requested = parseRange(headers.range, snap.size);
  if (requested.kind === 'none') return full;
  const ifRange = Array.isArray(headers['if-range']) ? headers['if-range'][0] : headers['if-range'];
  if (!ifRangeMatches(ifRange, snap)) return full;
  if (requested.kind === 'unsatisfiable') {
    return { status: 416, headers: { ...base, 'content-range': `bytes */${snap.size}` } };
  }

  const ranges = fault?.firstRangeOnly ? requested.ranges.slice(0, 1) : requested.ranges;
  const claimed = fault?.wrongContentRange ? ranges.map((r) => misplaced(r, snap.size)) : ranges;
  if (ranges.length === 1) {
    const [range] = ranges as [ByteRange];
    const [claim] = claimed as [ByteRange];
    return {
      status: 206,
      headers: { ...base, 'content-range': `bytes ${claim.start}-${claim.end}/${snap.size}` },
      body: { length: range.end - range.start + 1, chunks: snap.read(range.start, range.end) },
    };
  }
  const multipart = multipartByteranges(ranges, claimed, snap.size, snap.contentType, (s, e) =>
    snap.read(s, e),
  );
  return {
    status: 206,
    headers: { ...base, 'content-type': multipart.contentType },
    body: { length: multipart.length, chunks: multipart.chunks },
  };
}
