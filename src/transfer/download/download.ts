import { rm } from 'node:fs/promises';
import { DownloadError, RangeNotHonouredError } from './errors.js';
import { openFirstResponse, sizeOrDispose } from './first-response.js';
import { runPlain } from './plain-download.js';
import { withoutCredentials } from '../../http/url-scope.js';
import { acceptsByteRanges, rangeValidator } from './response-headers.js';
import { runSegmented } from './segmented-download.js';
import { createTempFile, type TempFile } from '../../core/atomic-files.js';
import { PartialSession } from './partial-session.js';
import { takePartialSlot } from './partial-store.js';
import { WriteBehind } from './write-behind.js';
import type { TransferContext, TransferOutcome } from './transfer-context.js';
import type { DownloadRequest, DownloadResult } from './types.js';

const DEFAULT_CONNECTIONS = 4;
const DEFAULT_MIN_SEGMENT_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_RETRIES = 4;

/**
 * Downloads `req.url` into a new temp file in `req.destDir`: streamed, segmented when allowed and
 * the server supports ranges, retried and resumed on transient failures, hashed on the way, and
 * fsynced. On failure or abort the temp file is deleted and a DownloadError naming the URL is thrown.
 */
export async function download(req: DownloadRequest): Promise<DownloadResult> {
  const url = new URL(req.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DownloadError('DOWNLOAD_URL_INVALID', req.url, `unsupported URL scheme ${url.protocol}`);
  }
  if (req.signal?.aborted) throw new DownloadError('DOWNLOAD_ABORTED', req.url, 'download aborted');
  const slot = req.resumeDir
    ? // A cache that cannot hold a partial (a planted link, a full disk) only costs the resume.
      await takePartialSlot(req.resumeDir, req.url).catch(() => undefined)
    : undefined;
  const partial = slot ? new PartialSession(slot, req.url) : undefined;
  const temp: TempFile = slot
    ? { path: slot.dataPath, handle: slot.handle }
    : await createTempFile(req.destDir, req.tempPrefix);
  const writeBehind = new WriteBehind(temp.handle);
  const ctx: TransferContext = {
    url: req.url,
    http: req.http,
    phase: req.phase ?? 'download',
    file: temp.handle,
    // Asset downloads never carry credentials, on any origin.
    headers: withoutCredentials(req.headers),
    signal: req.signal,
    stallTimeoutMs: req.stallTimeoutMs,
    minBytesPerSec: req.minBytesPerSec ?? 0,
    maxRetries: req.maxRetries ?? DEFAULT_MAX_RETRIES,
    expectedSize: req.expectedSize,
    maxBytes: req.maxBytes,
    retries: 0,
    tap: req.tap,
    progress: (received, total) => {
      writeBehind.written(received);
      partial?.progressed(received);
      req.onProgress?.(received, total);
    },
    onPlan: partial ? (plan) => partial.planned(plan) : undefined,
  };
  try {
    const outcome = await transfer(ctx, req, partial);
    // An abort that lands after the last byte still means the caller no longer wants the file.
    if (req.signal?.aborted) throw new DownloadError('DOWNLOAD_ABORTED', req.url, 'download aborted');
    await writeBehind.settle();
    await temp.handle.sync();
    await temp.handle.close();
    const path = partial ? await partial.handOver(req.destDir, req.tempPrefix) : temp.path;
    return { path, retries: ctx.retries, ...outcome };
  } catch (err) {
    await writeBehind.drain();
    await temp.handle.close().catch(() => undefined);
    // A partial stays for the next run (Ctrl-C, a dead link); a plain temp file goes.
    if (partial) await partial.keep();
    else await rm(temp.path, { force: true });
    if (err instanceof DownloadError) throw err;
    throw new DownloadError('DOWNLOAD_FAILED', req.url, err instanceof Error ? err.message : String(err), {
      cause: err,
    });
  }
}

async function transfer(
  ctx: TransferContext,
  req: DownloadRequest,
  partial: PartialSession | undefined,
): Promise<TransferOutcome & { resumedBytes: number }> {
  const first = await openFirstResponse(ctx);
  const { headers } = first.response;
  const size = sizeOrDispose(ctx, first);
  const validator = rangeValidator(headers) ?? req.validator;
  const connections = Math.max(1, Math.floor(req.connections || DEFAULT_CONNECTIONS));
  const minSegmentBytes = Math.max(64 * 1024, req.minSegmentBytes ?? DEFAULT_MIN_SEGMENT_BYTES);
  const eligible =
    req.segmented &&
    connections > 1 &&
    acceptsByteRanges(headers) &&
    size !== undefined &&
    size >= 2 * minSegmentBytes &&
    validator !== undefined;
  // What a previous run left counts only for the very same version, and only with ranges.
  const previous = partial?.previous;
  const done =
    previous &&
    previous.validator === validator &&
    previous.size === size &&
    acceptsByteRanges(headers) &&
    previous.ranges.length > 0
      ? previous.ranges
      : undefined;
  const resumedBytes = (done ?? []).reduce((n, [a, b]) => n + (b - a), 0);
  if (!eligible) {
    const prefix = done?.[0]?.[0] === 0 ? done[0][1] : 0;
    if (prefix === 0) await partial?.discardPrevious();
    else await ctx.file.truncate(prefix);
    const { restarted, ...outcome } = await runPlain(ctx, first, req.validator, prefix);
    return { ...outcome, resumedBytes: restarted ? 0 : prefix };
  }
  if (!done) await partial?.discardPrevious();
  try {
    const outcome = await runSegmented(ctx, first, {
      size,
      validator,
      connections,
      minSegmentBytes,
      finalUrl: first.response.url,
      done,
    });
    return { ...outcome, resumedBytes };
  } catch (err) {
    if (!(err instanceof RangeNotHonouredError)) throw err;
    // The server does not honour ranges: start over with one plain GET.
    await ctx.file.truncate(0);
    ctx.retries++;
    ctx.progress(0, size);
    const { restarted: _, ...outcome } = await runPlain(ctx, undefined, req.validator);
    return { ...outcome, resumedBytes: 0 };
  }
}
