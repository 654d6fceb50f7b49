import { Attempt } from './attempt.js';
import { pumpBody } from './body-pump.js';
import { DownloadError, RangeNotHonouredError } from './errors.js';
import type { FirstResponse } from './first-response.js';
import { openResponse, type OpenedResponse } from './http-open.js';
import { PrefixHasher } from './prefix-hasher.js';
import { headerValue } from '../../http/headers.js';
import { parseContentRange } from '../ranges/content-range.js';
import { backoffMs, PROGRESS_RESETS_RETRIES, sleep } from './retry-policy.js';
import {
  contiguousEnd,
  initialSegments,
  resumedSegments,
  stealWork,
  writtenBytes,
  type Segment,
} from './segment-plan.js';
import type { ByteRanges } from './partial-store.js';
import type { TransferContext, TransferOutcome } from './transfer-context.js';

/** Parameters of a segmented transfer, known from the probe. */
export interface SegmentedPlan {
  size: number;
  /** Strong ETag or Last-Modified sent as If-Range with every Range request. */
  validator: string;
  connections: number;
  minSegmentBytes: number;
  /** URL after redirects: every Range request goes straight there. */
  finalUrl: string;
  /** Ranges a previous run left on disk for this validator and size (then `first` is not used). */
  done?: ByteRanges | undefined;
}

/**
 * Parallel Range requests over `plan.connections` connections. The probe's 200 body serves the
 * first segment (cut off at its end); the others are fetched with `Range` + `If-Range`, each
 * answer checked to be a 206 with exactly the asked Content-Range. A connection that fails
 * resumes its segment from where it stopped; a connection that finishes takes half of the
 * largest remaining segment. Throws RangeNotHonouredError when the server does not honour
 * ranges, so the caller can fall back to a plain GET.
 */
export async function runSegmented(
  ctx: TransferContext,
  first: FirstResponse | undefined,
  plan: SegmentedPlan,
): Promise<TransferOutcome> {
  await ctx.file.truncate(plan.size);
  const segments = plan.done
    ? resumedSegments(plan.size, plan.done, plan.connections, plan.minSegmentBytes)
    : initialSegments(plan.size, plan.connections, plan.minSegmentBytes);
  const open = segments.filter((s) => s.written < s.end);
  const connections = Math.min(plan.connections, Math.max(1, open.length));
  ctx.onPlan?.({
    validator: plan.validator,
    size: plan.size,
    ranges: () => segments.map((s) => [s.start, s.written]),
  });
  const minStealBytes = Math.max(64 * 1024, Math.floor(plan.minSegmentBytes / 2));
  const group = new AbortController();
  const groupSignal = ctx.signal ? AbortSignal.any([ctx.signal, group.signal]) : group.signal;
  const hasher = new PrefixHasher(ctx.file, () => contiguousEnd(segments), ctx.tap);
  const live = new Set<Attempt>();
  let failure: DownloadError | undefined;

  const fail = (err: DownloadError): void => {
    if (failure) return;
    failure = err;
    group.abort(err);
    for (const attempt of live) attempt.cancel();
  };
  const onWritten = (position: number, buffers: readonly Buffer[]): void => {
    hasher.written(position, buffers);
    ctx.progress(writtenBytes(segments), plan.size);
  };

  const openRange = async (seg: Segment, attempt: Attempt): Promise<OpenedResponse> => {
    const last = seg.end - 1;
    const headers = { ...ctx.headers, range: `bytes=${seg.received}-${last}`, 'if-range': plan.validator };
    let response: OpenedResponse;
    try {
      response = await openResponse(ctx, plan.finalUrl, { headers, attempt });
    } catch (err) {
      if (err instanceof DownloadError && err.code === 'DOWNLOAD_HTTP_416') {
        throw new RangeNotHonouredError(plan.finalUrl, `server refused range ${seg.received}-${last} (416)`);
      }
      throw err;
    }
    const raw = headerValue(response.headers, 'content-range');
    const range = parseContentRange(raw);
    if (
      response.statusCode !== 206 ||
      !range ||
      range.first !== seg.received ||
      range.last !== last ||
      range.total !== plan.size
    ) {
      response.body.destroy();
      throw new RangeNotHonouredError(
        plan.finalUrl,
        response.statusCode === 206
          ? `asked for bytes ${seg.received}-${last}/${plan.size}, got Content-Range '${raw ?? ''}'`
          : `server answered a Range request with HTTP ${response.statusCode}`,
      );
    }
    return response;
  };

  const fetchSegment = async (seg: Segment, initial: FirstResponse | undefined): Promise<void> => {
    let failures = 0;
    let pendingFirst = initial;
    while (seg.written < seg.end && !failure) {
      const attempt =
        pendingFirst?.attempt ?? new Attempt(groupSignal, ctx.stallTimeoutMs, ctx.minBytesPerSec);
      live.add(attempt);
      const startedAt = seg.written;
      try {
        let body: OpenedResponse['body'];
        let askedEnd: number | undefined;
        if (pendingFirst) {
          body = pendingFirst.response.body;
          pendingFirst = undefined;
        } else {
          askedEnd = seg.end;
          body = (await openRange(seg, attempt)).body;
        }
        const reachedLimit = await pumpBody(body, {
          file: ctx.file,
          cursor: seg,
          attempt,
          limit: () => seg.end,
          // Let a range that ends where it was asked to finish by itself, keeping the connection alive.
          drainAtLimit: () => askedEnd === seg.end,
          onWritten,
        });
        if (!reachedLimit && seg.written < seg.end) {
          throw new DownloadError(
            'DOWNLOAD_SHORT',
            plan.finalUrl,
            `segment ended at byte ${seg.written}, expected ${seg.end}`,
            { transient: true },
          );
        }
      } catch (err) {
        if (failure) return;
        const e = attempt.translate(err, ctx.url);
        if (e instanceof RangeNotHonouredError || !e.transient) return fail(e);
        if (seg.written - startedAt >= PROGRESS_RESETS_RETRIES) failures = 0;
        failures++;
        if (failures > ctx.maxRetries) return fail(e);
        ctx.retries++;
        seg.received = seg.written;
        try {
          await sleep(backoffMs(failures, e.retryAfterMs), groupSignal);
        } catch (cause) {
          if (!failure) fail(attempt.translate(cause, ctx.url));
          return;
        }
      } finally {
        attempt.dispose();
        live.delete(attempt);
      }
    }
  };

  // Open segments not yet taken by a connection (more than `connections` after a resume).
  const waiting = open.slice();
  const worker = async (initial?: FirstResponse): Promise<void> => {
    try {
      let current: Segment | undefined = waiting.shift();
      let pendingFirst = initial;
      while (current && !failure) {
        await fetchSegment(current, pendingFirst);
        pendingFirst = undefined;
        current = failure ? undefined : (waiting.shift() ?? stealWork(segments, minStealBytes));
      }
    } catch (err) {
      fail(
        err instanceof DownloadError
          ? err
          : new DownloadError('DOWNLOAD_FAILED', ctx.url, String(err), { cause: err }),
      );
    }
  };

  if (open.length === 0 && contiguousEnd(segments) !== plan.size) {
    throw new DownloadError('DOWNLOAD_FAILED', ctx.url, 'nothing to download');
  }
  // The probe's body serves the first segment of a fresh download; a resume drops it.
  if (plan.done) first?.attempt.dispose();
  if (plan.done) first?.response.body.destroy();
  const initial = plan.done ? undefined : first;
  await Promise.all(Array.from({ length: connections }, (_, i) => worker(i === 0 ? initial : undefined)));
  if (failure) throw failure;
  const done = contiguousEnd(segments);
  if (done !== plan.size) {
    throw new DownloadError('DOWNLOAD_SHORT', ctx.url, `only ${done} of ${plan.size} bytes arrived`);
  }
  return {
    size: plan.size,
    sha256: await hasher.digest(plan.size),
    finalUrl: plan.finalUrl,
    segmented: true,
    connections,
  };
}
