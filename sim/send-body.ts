/**
 * Writes a response head and streamed body, applying the byte-level faults (throttle, drop, stall,
 * short body). Every wait is abortable so `stop()` and client disconnects end it promptly.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Fault } from './types.js';

/** Chunks of a body, produced synchronously (memory, generator) or not (files, sockets). */
export type ByteChunks = Iterable<Buffer> | AsyncIterable<Buffer>;

/** A body of known length produced chunk by chunk. */
export interface StreamedBody {
  length: number;
  chunks: ByteChunks;
}

/** Everything needed to answer one request. */
export interface Outgoing {
  status: number;
  headers: OutgoingHttpHeaders;
  body?: Buffer | StreamedBody;
}

/** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function write(res: ServerResponse, data: Buffer, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = (): void => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    // The callback fires once the bytes reach the socket, so a later drop happens after them.
    res.write(data, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function slices(body: Buffer | StreamedBody): ByteChunks {
  return Buffer.isBuffer(body) ? [body] : body.chunks;
}

/** Sends `out` on `res`; `signal` aborts when the client goes away or the sim stops. */
export async function sendResponse(
  res: ServerResponse,
  out: Outgoing,
  method: string,
  fault: Fault | undefined,
  signal: AbortSignal,
): Promise<void> {
  const length = out.body === undefined ? 0 : Buffer.isBuffer(out.body) ? out.body.length : out.body.length;
  const headers: OutgoingHttpHeaders = { ...out.headers };
  // A bodiless answer may carry its own Content-Length (a relayed HEAD); otherwise it is the body's.
  const keepDeclared = out.body === undefined && headers['content-length'] !== undefined;
  if (out.status !== 304 && out.status !== 204 && !keepDeclared) headers['content-length'] = String(length);
  if (fault?.chunked) delete headers['content-length'];
  const short = fault?.shortBody !== undefined && method !== 'HEAD' ? Math.min(fault.shortBody, length) : 0;
  // A short body leaves the connection out of sync, so close it: the client sees a premature EOF.
  if (short > 0) headers.connection = 'close';
  res.writeHead(out.status, headers);
  if (method !== 'HEAD' && length > 0) res.flushHeaders();
  if (method === 'HEAD' || out.body === undefined || length === 0) {
    res.end();
    return;
  }

  const limit = length - short;
  const dropAt = fault?.dropAfterBytes;
  const stallAt = fault?.stallAfterBytes;
  const rate = fault?.throttleBytesPerSec;
  const cutAt = Math.min(limit, dropAt ?? Infinity, stallAt ?? Infinity);
  const step = rate ? Math.max(1, Math.floor(rate / 20)) : Infinity;
  const started = Date.now();
  let sent = 0;

  for await (const chunk of slices(out.body)) {
    if (signal.aborted || sent >= cutAt) break;
    let piece = chunk.subarray(0, Math.max(0, cutAt - sent));
    while (piece.length > 0 && !signal.aborted) {
      const part = piece.subarray(0, Math.min(piece.length, step));
      piece = piece.subarray(part.length);
      await write(res, part, signal);
      sent += part.length;
      if (rate) await sleep(started + (sent / rate) * 1000 - Date.now(), signal);
    }
  }
  if (signal.aborted) return;
  if (dropAt !== undefined && sent >= dropAt && sent < limit) {
    // end() flushes what was written (including the head) before closing, unlike destroy().
    res.socket?.end();
    return;
  }
  if (stallAt !== undefined && sent >= stallAt && sent < limit) {
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    return;
  }
  res.end();
}
