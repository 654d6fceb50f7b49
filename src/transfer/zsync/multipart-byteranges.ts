import { parseContentRange, type ContentRange } from '../ranges/content-range.js';
import { zsyncError } from './errors.js';

/** Receives the parts of a `multipart/byteranges` body as they stream in. */
export interface PartSink {
  /** A part starts; its bytes follow through `data`. */
  beginPart(range: ContentRange): void;
  /** The next bytes of the current part (a view into the network chunk). */
  data(chunk: Buffer): void;
  /** The current part is complete. */
  endPart(): void;
}

type State = 'delimiter' | 'headers' | 'body' | 'done';

/** Between parts only CRLFs and at most a short preamble are expected; more means garbage. */
const MAX_GAP = 64 * 1024;
const MAX_HEADERS = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

function malformed(message: string): Error {
  return zsyncError('RANGE_INVALID', `malformed multipart/byteranges response: ${message}`);
}

/**
 * Incremental parser of a `multipart/byteranges` body (RFC 9110 14.6). Part bodies are delimited
 * by the length of their `Content-Range`, so part data is passed through without scanning it for
 * the boundary and without copying.
 */
export class MultipartByteranges {
  private state: State = 'delimiter';
  private pending: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private readonly delimiter: Buffer;

  constructor(
    boundary: string,
    private readonly sink: PartSink,
  ) {
    this.delimiter = Buffer.from(`--${boundary}`, 'latin1');
  }

  /** True once the closing delimiter was seen. */
  get complete(): boolean {
    return this.state === 'done';
  }

  /** Feeds the next network chunk. */
  push(chunk: Buffer): void {
    let buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (buf.length > 0) {
      switch (this.state) {
        case 'body': {
          const n = Math.min(this.remaining, buf.length);
          this.sink.data(buf.subarray(0, n));
          this.remaining -= n;
          buf = buf.subarray(n);
          if (this.remaining === 0) {
            this.sink.endPart();
            this.state = 'delimiter';
          }
          break;
        }
        case 'delimiter': {
          const at = buf.indexOf(this.delimiter);
          if (at < 0) {
            if (buf.length > MAX_GAP) throw malformed('no boundary found');
            this.pending = buf;
            return;
          }
          const after = at + this.delimiter.length;
          if (buf.length < after + 2) {
            this.pending = buf;
            return;
          }
          if (buf[after] === 0x2d && buf[after + 1] === 0x2d) {
            this.state = 'done';
            return;
          }
          this.state = 'headers';
          buf = buf.subarray(after);
          break;
        }
        case 'headers': {
          const at = buf.indexOf(HEADER_END);
          if (at < 0) {
            if (buf.length > MAX_HEADERS) throw malformed('part headers too long');
            this.pending = buf;
            return;
          }
          this.beginPart(buf.toString('latin1', 0, at));
          buf = buf.subarray(at + HEADER_END.length);
          break;
        }
        case 'done':
          return;
      }
    }
  }

  /** Call when the body ended: throws if it stopped inside a part. */
  finish(): void {
    if (this.state === 'body' || this.state === 'headers') throw malformed('body ended inside a part');
  }

  private beginPart(headerBlock: string): void {
    // The first line is the remainder of the delimiter line (transport padding), then the headers.
    const lines = headerBlock.split('\r\n').slice(1);
    let range: ContentRange | undefined;
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'content-range')
        range = parseContentRange(line.slice(colon + 1));
    }
    if (!range) throw malformed('a part has no valid Content-Range');
    this.sink.beginPart(range);
    this.remaining = range.last - range.first + 1;
    this.state = 'body';
  }
}
