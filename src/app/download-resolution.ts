import type { AppSettings } from '../config/types.js';
import type { Context } from '../context/context.js';
import type { HttpPhase } from '../http/errors.js';
import { download, type ByteTap, type DownloadResult } from '../transfer/download/index.js';
import type { Resolution } from '../sources/types.js';

/**
 * Downloads a resolved asset into a temp file in `destDir` with the app's transfer settings,
 * reporting progress as the app's download events: the one full-download path of apps and of the
 * tool's own self-update.
 */
export async function downloadResolution(
  settings: AppSettings,
  resolution: Resolution,
  ctx: Context,
  target: {
    destDir: string;
    tempPrefix: string;
    signal: AbortSignal;
    /** self-update for the tool's own executable (named in errors); default download. */
    phase?: HttpPhase | undefined;
    tap?: ByteTap | undefined;
    /** Bytes on disk so far, as the download reports them (for counting what was received). */
    onReceived?: ((received: number) => void) | undefined;
  },
): Promise<DownloadResult> {
  ctx.emit({
    type: 'download:start',
    app: settings.name,
    url: resolution.url,
    total: resolution.size,
    segmented: settings.segmented_downloads,
  });
  const result = await download({
    url: resolution.url,
    http: ctx.http,
    phase: target.phase ?? 'download',
    destDir: target.destDir,
    tempPrefix: target.tempPrefix,
    expectedSize: resolution.size,
    maxBytes: settings.max_asset_size,
    validator: resolution.validator,
    // An interrupted download resumes on the next run from the partial kept in the cache.
    resumeDir: ctx.paths.cacheDir,
    tap: target.tap,
    segmented: settings.segmented_downloads,
    connections: settings.download_connections,
    stallTimeoutMs: settings.stall_timeout * 1000,
    minBytesPerSec: settings.min_rate,
    signal: target.signal,
    onProgress: (received, total) => {
      target.onReceived?.(received);
      ctx.emit({ type: 'download:progress', app: settings.name, received, total });
    },
  });
  ctx.emit({ type: 'download:end', app: settings.name, bytes: result.size });
  return result;
}
