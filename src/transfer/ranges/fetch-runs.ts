import { setTimeout as sleep } from 'node:timers/promises';
import { KeeperError } from '../../core/errors.js';
import { byterangesBoundary, parseContentRange } from './content-range.js';
import { zsyncError } from '../zsync/errors.js';
import { headerValue } from '../../http/headers.js';
import { discardBody, networkError, openGet, type HttpSession } from '../zsync/http.js';
import { MultipartByteranges, type PartSink } from '../zsync/multipart-byteranges.js';
import { PROGRESS_INTERVAL_MS } from '../progress-interval.js';
import { missingRuns, runBytes, splitRuns, takeBatch, type ChunkLayout, type ChunkRun } from './runs.js';

/** Receives the parts of one response, verifies whole chunks, marks them known and queues writes. */
export interface ChunkSink extends PartSink {
  /** Bytes verified but not yet written. */
  readonly queuedBytes: number;
  /** Writes everything queued. */
  flush(): Promise<void>;
}

/** Everything needed to fetch the chunks a delta client could not take from the local file. */
export interface FetchRunsOptions {
  session: HttpSession;
  /** The target file's URL. */
  url: string;
  layout: ChunkLayout;
  /** One byte per chunk, non-zero once the chunk is verified and queued; the sinks set it. */
  known: Uint8Array;
  maxRangesPerRequest: number;
  /** A fresh sink for the response that `url` (after redirects) sent. */
  sinkFor: (url: string) => ChunkSink;
  onProgress?: ((fetched: number, total: number) => void) | undefined;
}

/** Parallel range requests once the first answer showed how the server behaves. */
const CONNECTIONS = 4;
/** Upper bound of one request's payload, so a large change is spread over the connections. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/** Flush verified chunks to disk once this much is queued (or PROGRESS_INTERVAL_MS passed). */
const FLUSH_BYTES = 1024 * 1024;
/** Failed or fruitless requests tolerated in one run before giving up. */
const MAX_RETRIES = 4;

/**
 * Resets and 5xx are retried; a stall is not: at the default 30 s stall timeout, retries would
 * delay the fallback to a full (resumable) download by minutes.
 */
function retryable(err: KeeperError): boolean {
  if (err.code === 'ZSYNC_NETWORK') return true;
  const status = err.details?.status;
  return err.code === 'ZSYNC_TARGET_HTTP' && typeof status === 'number' && (status >= 500 || status === 429);
}

/**
 * Fetches every chunk still unknown with HTTP range requests: adjacent chunks merged into one
 * range, up to `maxRangesPerRequest` ranges per request answered as `multipart/byteranges`; a
 * server that answers a multi-range request with a single part is asked one range at a time from
 * then on. The sinks verify each chunk before it is written. Returns the URL that served the
 * ranges (after redirects). Errors are of the `ZSYNC_*` family.
 */
export async function fetchRuns(opts: FetchRunsOptions): Promise<string> {
  const { layout, known, session } = opts;
  const queue = splitRuns(missingRuns(known), layout, MAX_REQUEST_BYTES);
  const total = queue.reduce((sum, r) => {
    const [a, b] = runBytes(r, layout);
    return sum + b - a + 1;
  }, 0);
  let fetched = 0;
  let url = opts.url;
  let maxRanges = Math.max(1, opts.maxRangesPerRequest);
  let retriesLeft = MAX_RETRIES;
  const stop = new AbortController();
  const signal = session.signal ? AbortSignal.any([session.signal, stop.signal]) : stop.signal;
  opts.onProgress?.(0, total);

  /** Sends one request for `batch`; `got.bytes` counts the verified bytes it delivered. */
  const runBatch = async (batch: ChunkRun[], got: { bytes: number }): Promise<void> => {
    const ranges = batch.map((r) => runBytes(r, layout));
    const res = await openGet(
      session,
      url,
      { range: `bytes=${ranges.map(([a, b]) => `${a}-${b}`).join(',')}` },
      signal,
    );
    url = res.url;
    if (res.status === 200) {
      discardBody(res.body);
      throw zsyncError('NO_RANGES', `${res.url} ignores range requests (answered 200 with the whole file)`, {
        details: { url: res.url },
      });
    }
    if (res.status !== 206) {
      discardBody(res.body);
      throw zsyncError('TARGET_HTTP', `range request to ${res.url}: HTTP ${res.status}`, {
        details: { url: res.url, status: res.status },
      });
    }
    const receiver = opts.sinkFor(res.url);
    let push: (chunk: Buffer) => void;
    let finish: () => void;
    const boundary = byterangesBoundary(headerValue(res.headers, 'content-type'));
    if (boundary !== undefined) {
      const parser = new MultipartByteranges(boundary, receiver);
      push = (chunk) => parser.push(chunk);
      finish = () => parser.finish();
    } else {
      const range = parseContentRange(headerValue(res.headers, 'content-range'));
      if (!range) {
        discardBody(res.body);
        throw zsyncError('RANGE_INVALID', `${res.url} answered 206 without a valid Content-Range`);
      }
      // A single part for several ranges: this server does not do multipart; ask one range at a time.
      if (batch.length > 1) maxRanges = 1;
      receiver.beginPart(range);
      let left = range.last - range.first + 1;
      push = (chunk) => {
        const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
        left -= part.length;
        receiver.data(part);
      };
      finish = () => receiver.endPart();
    }
    try {
      let flushedAt = Date.now();
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        session.bytesFetched += chunk.length;
        push(chunk);
        const queued = receiver.queuedBytes;
        // Progress is reported per flush: on a slow link, flush by time before a full batch.
        if (queued >= FLUSH_BYTES || (queued > 0 && Date.now() - flushedAt >= PROGRESS_INTERVAL_MS)) {
          got.bytes += queued;
          fetched += queued;
          await receiver.flush();
          flushedAt = Date.now();
          opts.onProgress?.(fetched, total);
        }
      }
      finish();
    } catch (err) {
      discardBody(res.body);
      throw networkError(err, res.url, signal);
    } finally {
      // Chunks already verified are marked known: they must reach the disk even when the body failed.
      got.bytes += receiver.queuedBytes;
      fetched += receiver.queuedBytes;
      await receiver.flush();
      opts.onProgress?.(fetched, total);
    }
  };

  const step = async (): Promise<void> => {
    const batch = takeBatch(queue, maxRanges, MAX_REQUEST_BYTES, layout);
    if (batch.length === 0) return;
    const rangesAsked = batch.length;
    const got = { bytes: 0 };
    let failure: KeeperError | undefined;
    try {
      await runBatch(batch, got);
    } catch (err) {
      const e = networkError(err, url, signal);
      if (!retryable(e) || retriesLeft <= 0) throw e;
      failure = e;
    }
    const rest = missingRuns(known, batch);
    if (rest.length === 0) return;
    queue.unshift(...rest);
    // Not a failure: the server just switched us to one range per request.
    if (!failure && got.bytes > 0) return;
    if (!failure && rangesAsked > 1 && maxRanges === 1) return;
    if (retriesLeft-- <= 0)
      throw failure ?? zsyncError('RANGE_INVALID', `${url} did not return the requested ranges`);
    await sleep(100 * (MAX_RETRIES - retriesLeft), undefined, { signal }).catch(() => undefined);
  };

  let firstError: unknown;
  const guarded = async (work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      // Stop the other connections, and wait for them: none may touch the file after we return.
      firstError ??= err;
      stop.abort();
    }
  };
  const loop = async (): Promise<void> => {
    while (queue.length > 0 && firstError === undefined) await step();
  };

  // One request alone first: it reveals redirects and whether multipart answers work.
  await guarded(step);
  if (firstError === undefined) await Promise.all(Array.from({ length: CONNECTIONS }, () => guarded(loop)));
  if (firstError !== undefined)
    throw firstError instanceof KeeperError ? firstError : networkError(firstError, url, session.signal);
  return url;
}
