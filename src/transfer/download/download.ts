import { rm } from 'node:fs/promises';
import { DownloadError, RangeNotHonouredError } from './errors.js';
import { openFirstResponse, sizeOrDispose } from './first-response.js';
import { runPlain } from './plain-download.js';
import { withoutCredentials } from '../../http/url-scope.js';
import { acceptsByteRanges, rangeValidator } from './response-headers.js';
import { runSegmented } from './segmented-download.js';
import { createTempFile } from '../../core/atomic-files.js';
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
  const temp = await createTempFile(req.destDir, req.tempPrefix);
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
      req.onProgress?.(received, total);
    },
  };
  try {
    const outcome = await transfer(ctx, req);
    // An abort that lands after the last byte still means the caller no longer wants the file.
    if (req.signal?.aborted) throw new DownloadError('DOWNLOAD_ABORTED', req.url, 'download aborted');
    await writeBehind.settle();
    await temp.handle.sync();
    await temp.handle.close();
    return { path: temp.path, retries: ctx.retries, ...outcome };
  } catch (err) {
    await writeBehind.drain();
    await temp.handle.close().catch(() => undefined);
    await rm(temp.path, { force: true });
    if (err instanceof DownloadError) throw err;
    throw new DownloadError('DOWNLOAD_FAILED', req.url, err instanceof Error ? err.message : String(err), {
      cause: err,
    });
  }
}

async function transfer(ctx: TransferContext, req: DownloadRequest): Promise<TransferOutcome> {
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
  if (!eligible) return runPlain(ctx, first, req.validator);
  try {
    return await runSegmented(ctx, first, {
      size,
      validator,
      connections,
      minSegmentBytes,
      finalUrl: first.response.url,
    });
  } catch (err) {
    if (!(err instanceof RangeNotHonouredError)) throw err;
    // The server does not honour ranges: start over with one plain GET.
    await ctx.file.truncate(0);
    ctx.retries++;
    ctx.progress(0, size);
    return runPlain(ctx, undefined, req.validator);
  }
}
