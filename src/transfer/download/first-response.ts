import { Attempt } from './attempt.js';
import { DownloadError } from './errors.js';
import { openResponse, type OpenedResponse } from './http-open.js';
import { contentLength } from './response-headers.js';
import { backoffMs, sleep } from './retry-policy.js';
import type { TransferContext } from './transfer-context.js';

/** The first response (a plain GET) with the attempt whose stall timer watches its body. */
export interface FirstResponse {
  response: OpenedResponse;
  attempt: Attempt;
}

/**
 * Opens the first GET, retrying transient failures. Its headers are the probe: size, range
 * support and validator; its body is the start of the download either way, so probing costs
 * no extra round trip.
 */
export async function openFirstResponse(ctx: TransferContext): Promise<FirstResponse> {
  for (let failures = 0; ;) {
    const attempt = new Attempt(ctx.signal, ctx.stallTimeoutMs, ctx.minBytesPerSec);
    try {
      const response = await openResponse(ctx, ctx.url, { headers: ctx.headers, attempt });
      if (response.statusCode !== 200) {
        response.body.destroy();
        throw new DownloadError(
          `DOWNLOAD_HTTP_${response.statusCode}`,
          response.url,
          `expected HTTP 200, got ${response.statusCode}`,
        );
      }
      return { response, attempt };
    } catch (err) {
      attempt.dispose();
      const e = attempt.translate(err, ctx.url);
      failures++;
      if (!e.transient || failures > ctx.maxRetries) throw e;
      ctx.retries++;
      await sleep(backoffMs(failures, e.retryAfterMs), ctx.signal).catch((cause: unknown) => {
        throw attempt.translate(cause, ctx.url);
      });
    }
  }
}

/** Body size announced by a 200 response, checked against the size the caller expects and allows. */
export function announcedSize(ctx: TransferContext, response: OpenedResponse): number | undefined {
  const size = contentLength(response.headers);
  if (size !== undefined && ctx.maxBytes !== undefined && size > ctx.maxBytes) {
    response.body.destroy();
    throw tooLarge(response.url, `server announces ${size} bytes, over max_asset_size (${ctx.maxBytes})`);
  }
  if (size !== undefined && ctx.expectedSize !== undefined && size !== ctx.expectedSize) {
    response.body.destroy();
    throw new DownloadError(
      'DOWNLOAD_SIZE_MISMATCH',
      response.url,
      `server announces ${size} bytes, expected ${ctx.expectedSize}`,
      { hint: 'the file changed since it was resolved; run again' },
    );
  }
  return size;
}

/**
 * The announced size of the first response; when it is refused, its attempt is disposed first, or
 * its stall timer would keep the process alive for stall_timeout after the failure.
 */
export function sizeOrDispose(ctx: TransferContext, first: FirstResponse): number | undefined {
  try {
    return announcedSize(ctx, first.response);
  } catch (err) {
    first.attempt.dispose();
    throw err;
  }
}

/** ASSET_TOO_LARGE for a download: never retried, and says how to allow it. */
export function tooLarge(url: string, message: string): DownloadError {
  return new DownloadError('ASSET_TOO_LARGE', url, `${message}; not downloaded`, {
    hint: 'if this AppImage really is that big, raise max_asset_size',
  });
}
