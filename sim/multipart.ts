/** Builds `multipart/byteranges` bodies (RFC 9110 section 14.6) with an exact Content-Length. */
import { randomBytes } from 'node:crypto';
import type { ByteRange } from './ranges.js';
import type { ByteChunks, StreamedBody } from './send-body.js';

/** A multipart body plus the Content-Type header value that names its boundary. */
export interface MultipartBody extends StreamedBody {
  contentType: string;
}

/**
 * Streams each range of the representation as one part. `claimed` gives the ranges to announce in
 * each part's Content-Range (they differ from `ranges` only when a fault asks for wrong headers).
 */
export function multipartByteranges(
  ranges: ByteRange[],
  claimed: ByteRange[],
  size: number,
  partContentType: string,
  read: (start: number, endInclusive: number) => ByteChunks,
): MultipartBody {
  const boundary = `SIM_${randomBytes(12).toString('hex')}`;
  const heads = claimed.map((r) =>
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Type: ${partContentType}\r\nContent-Range: bytes ${r.start}-${r.end}/${size}\r\n\r\n`,
    ),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length =
    heads.reduce((n, h) => n + h.length, 0) +
    ranges.reduce((n, r) => n + (r.end - r.start + 1), 0) +
    tail.length;
  async function* chunks(): AsyncIterable<Buffer> {
    for (const [i, range] of ranges.entries()) {
      yield heads[i] as Buffer;
      yield* read(range.start, range.end);
    }
    yield tail;
  }
  return { length, chunks: chunks(), contentType: `multipart/byteranges; boundary=${boundary}` };
}
