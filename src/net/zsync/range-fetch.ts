import type { FileHandle } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { KeeperError } from '../../core/errors.js';
import type { BlockHasher } from './block-hasher.js';
import type { BlockMatcher } from './block-matcher.js';
import { BlockReceiver } from './block-receiver.js';
import { missingRuns, runBytes, splitRuns, takeBatch, type BlockRun } from './block-runs.js';
import { byterangesBoundary, parseContentRange } from './content-range.js';
import type { ZsyncControl } from './control-file.js';
import { zsyncError } from './errors.js';
import { discardBody, header, networkError, openGet, type HttpSession } from './http.js';
import { MultipartByteranges } from './multipart-byteranges.js';

/** Everything needed to fetch the blocks the seed did not provide. */
export interface RangeFetchOptions {
  session: HttpSession;
  /** The target file's URL (from the control file). */
  url: string;
  control: ZsyncControl;
  matcher: BlockMatcher;
  hasher: BlockHasher;
  out: FileHandle;
  maxRangesPerRequest: number;
  onProgress?: ((fetched: number, total: number) => void) | undefined;
}

/** Parallel range requests once the first answer showed how the server behaves. */
const CONNECTIONS = 4;
/** Upper bound of one request's payload, so a large change is spread over the connections. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;
/** Flush verified blocks to disk once this much is queued. */
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
 * Fetches every block still unknown with HTTP range requests: adjacent blocks merged into one
 * range, up to `maxRangesPerRequest` ranges per request answered as `multipart/byteranges`; a
 * server that answers a multi-range request with a single part is asked one range at a time from
 * then on. Every block is verified against its MD4 before it is written. Returns the URL that
 * served the ranges (after redirects).
 */
export async function fetchMissingBlocks(opts: RangeFetchOptions): Promise<string> {
  const { control, matcher, session } = opts;
  const bs = control.blockSize;
  const queue = splitRuns(missingRuns(matcher.known), Math.max(1, Math.floor(MAX_REQUEST_BYTES / bs)));
  const total = queue.reduce((sum, r) => {
    const [a, b] = runBytes(r, bs, control.length);
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
  const runBatch = async (batch: BlockRun[], got: { bytes: number }): Promise<void> => {
    const ranges = batch.map((r) => runBytes(r, bs, control.length));
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
    const receiver = new BlockReceiver(control, opts.hasher, matcher, opts.out, res.url);
    let push: (chunk: Buffer) => void;
    let finish: () => void;
    const boundary = byterangesBoundary(header(res.headers, 'content-type'));
    if (boundary !== undefined) {
      const parser = new MultipartByteranges(boundary, receiver);
      push = (chunk) => parser.push(chunk);
      finish = () => parser.finish();
    } else {
      const range = parseContentRange(header(res.headers, 'content-range'));
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
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        session.bytesFetched += chunk.length;
        push(chunk);
        if (receiver.queuedBytes >= FLUSH_BYTES) {
          got.bytes += receiver.queuedBytes;
          fetched += receiver.queuedBytes;
          await receiver.flush();
          opts.onProgress?.(fetched, total);
        }
      }
      finish();
    } catch (err) {
      discardBody(res.body);
      throw networkError(err, res.url, signal);
    } finally {
      // Blocks already verified are marked known: they must reach the disk even when the body failed.
      got.bytes += receiver.queuedBytes;
      fetched += receiver.queuedBytes;
      await receiver.flush();
      opts.onProgress?.(fetched, total);
    }
  };

  const step = async (): Promise<void> => {
    const batch = takeBatch(queue, maxRanges, MAX_REQUEST_BYTES, bs);
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
    const rest = missingRuns(matcher.known, batch);
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
