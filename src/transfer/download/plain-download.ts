import { Attempt } from './attempt.js';
import { pumpBody, type PumpCursor } from './body-pump.js';
import { DownloadError, RangeNotHonouredError } from './errors.js';
import {
  announcedSize,
  openFirstResponse,
  sizeOrDispose,
  tooLarge,
  type FirstResponse,
} from './first-response.js';
import { openResponse, type OpenedResponse } from './http-open.js';
import { PrefixHasher } from './prefix-hasher.js';
import { headerValue } from '../../http/headers.js';
import { parseContentRange } from '../ranges/content-range.js';
import { acceptsByteRanges, rangeValidator } from './response-headers.js';
import { backoffMs, PROGRESS_RESETS_RETRIES, sleep } from './retry-policy.js';
import type { TransferContext, TransferOutcome } from './transfer-context.js';

/** What the probe learnt about the resource. */
interface PlainState {
  size: number | undefined;
  validator: string | undefined;
  rangesOk: boolean;
  finalUrl: string;
  /** A full body replaced what was on disk (the bytes kept before it are not part of the file). */
  restarted: boolean;
}

/**
 * One connection, one GET. After a transient failure it resumes with `Range: bytes=<on disk>-`
 * and `If-Range`; a 200 answer restarts from byte 0, a wrong Content-Range disables ranges and
 * restarts. `first` is the already opened probe response (undefined: open a fresh GET). With
 * `resumeAt` (bytes a previous run left on disk) the probe's body is dropped and the first
 * request is already a resume.
 */
export async function runPlain(
  ctx: TransferContext,
  first: FirstResponse | undefined,
  fallbackValidator: string | undefined,
  resumeAt = 0,
): Promise<TransferOutcome> {
  let current: FirstResponse | undefined = first ?? (await openFirstResponse(ctx));
  const state: PlainState = {
    size: sizeOrDispose(ctx, current),
    validator: rangeValidator(current.response.headers) ?? fallbackValidator,
    rangesOk: acceptsByteRanges(current.response.headers),
    finalUrl: current.response.url,
    restarted: false,
  };
  const cursor: PumpCursor = { received: resumeAt, written: resumeAt };
  const hasher = new PrefixHasher(ctx.file, () => cursor.written, ctx.tap);
  const announce = (): void =>
    ctx.onPlan?.({ validator: state.validator, size: state.size, ranges: () => [[0, cursor.written]] });
  if (resumeAt > 0) {
    current.response.body.destroy();
    current.attempt.dispose();
    current = undefined;
  }
  announce();
  let failures = 0;

  for (;;) {
    const attempt: Attempt =
      current?.attempt ?? new Attempt(ctx.signal, ctx.stallTimeoutMs, ctx.minBytesPerSec);
    const startedAt = cursor.written;
    try {
      let response: OpenedResponse;
      if (current) {
        response = current.response;
        current = undefined;
      } else {
        response = await reopen(ctx, state, cursor, hasher, attempt);
        announce();
      }
      // A body of unannounced length (chunked) is still held to the size the forge announced, or
      // with none to max_asset_size.
      const overflow = state.size === undefined ? unannouncedOverflow(ctx) : undefined;
      await pumpBody(response.body, {
        file: ctx.file,
        cursor,
        attempt,
        limit: () => state.size ?? ctx.expectedSize ?? ctx.maxBytes,
        ...(overflow ? { overflow } : {}),
        onWritten: (position, buffers) => {
          hasher.written(position, buffers);
          ctx.progress(cursor.written, state.size ?? ctx.expectedSize);
        },
      });
      const size = state.size ?? ctx.expectedSize;
      if (size !== undefined && cursor.written < size) {
        throw new DownloadError(
          'DOWNLOAD_SHORT',
          ctx.url,
          `body ended after ${cursor.written} of ${size} bytes`,
          { transient: true },
        );
      }
      return {
        size: cursor.written,
        sha256: await hasher.digest(cursor.written),
        finalUrl: state.finalUrl,
        segmented: false,
        connections: 1,
        restarted: state.restarted,
      };
    } catch (err) {
      const e = attempt.translate(err, ctx.url);
      if (!e.transient) throw e;
      if (e instanceof RangeNotHonouredError) state.rangesOk = false;
      if (cursor.written - startedAt >= PROGRESS_RESETS_RETRIES) failures = 0;
      failures++;
      if (failures > ctx.maxRetries) throw e;
      ctx.retries++;
      cursor.received = cursor.written;
      await sleep(backoffMs(failures, e.retryAfterMs), ctx.signal).catch((cause: unknown) => {
        throw attempt.translate(cause, ctx.url);
      });
    } finally {
      attempt.dispose();
    }
  }
}

/** Opens the next attempt: a resume when possible, else a full GET that restarts the file. */
async function reopen(
  ctx: TransferContext,
  state: PlainState,
  cursor: PumpCursor,
  hasher: PrefixHasher,
  attempt: Attempt,
): Promise<OpenedResponse> {
  const canResume =
    cursor.written > 0 && state.rangesOk && state.validator !== undefined && state.size !== undefined;
  let response: OpenedResponse;
  if (canResume) {
    const headers = {
      ...ctx.headers,
      range: `bytes=${cursor.written}-`,
      'if-range': state.validator ?? '',
    };
    try {
      response = await openResponse(ctx, state.finalUrl, { headers, attempt });
    } catch (err) {
      if (err instanceof DownloadError && err.code === 'DOWNLOAD_HTTP_416') {
        throw new RangeNotHonouredError(
          state.finalUrl,
          `server refused to resume at byte ${cursor.written} (416)`,
        );
      }
      throw err;
    }
    if (response.statusCode === 206) {
      const range = parseContentRange(headerValue(response.headers, 'content-range'));
      const size = state.size ?? 0;
      if (!range || range.first !== cursor.written || range.last !== size - 1 || range.total !== size) {
        response.body.destroy();
        throw new RangeNotHonouredError(
          state.finalUrl,
          `asked for bytes ${cursor.written}-${size - 1}/${size}, got Content-Range ` +
            `'${headerValue(response.headers, 'content-range') ?? ''}'`,
        );
      }
      cursor.received = cursor.written;
      return response;
    }
  } else {
    response = await openResponse(ctx, state.finalUrl, { headers: ctx.headers, attempt });
  }
  if (response.statusCode !== 200) {
    response.body.destroy();
    throw new DownloadError(
      `DOWNLOAD_HTTP_${response.statusCode}`,
      response.url,
      `unexpected HTTP ${response.statusCode}`,
    );
  }
  // A full body: the server ignored the range or the file changed; start over from byte 0.
  await ctx.file.truncate(0);
  await hasher.reset();
  state.restarted = true;
  cursor.received = 0;
  cursor.written = 0;
  state.size = announcedSize(ctx, response);
  state.validator = rangeValidator(response.headers) ?? state.validator;
  state.rangesOk = state.rangesOk && acceptsByteRanges(response.headers);
  state.finalUrl = response.url;
  ctx.progress(0, state.size);
  return response;
}

/** The failure of a body without Content-Length that runs past what it may be, if anything bounds it. */
function unannouncedOverflow(ctx: TransferContext): (() => DownloadError) | undefined {
  const announced = ctx.expectedSize;
  if (announced !== undefined)
    return () =>
      new DownloadError(
        'DOWNLOAD_SIZE_MISMATCH',
        ctx.url,
        `the body (sent without Content-Length) runs past the ${announced} bytes the release announced; stopped there`,
      );
  const max = ctx.maxBytes;
  if (max === undefined) return undefined;
  return () =>
    tooLarge(ctx.url, `the body (sent without Content-Length) runs past max_asset_size (${max} bytes)`);
}
