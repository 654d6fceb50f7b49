import { rm } from 'node:fs/promises';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import type { ByteTap, DownloadResult } from '../net/download/index.js';
import { zsyncDownload } from '../net/zsync/index.js';
import type { Resolution } from '../strategy/types.js';
import { downloadResolution } from './download-resolution.js';
import { tempPrefix } from '../install/naming.js';
import type { Run } from './run.js';

/** A fetched asset in a temp file inside storage_dir, with how it was fetched. */
export interface FetchedAsset {
  path: string;
  size: number;
  /** SHA-256 computed while downloading; absent when zsync assembled the file. */
  sha256: string | undefined;
  method: 'plain' | 'segmented' | 'zsync';
  /** Body bytes transferred for this asset, a failed zsync attempt before a fallback included. */
  bytesDownloaded: number;
  bytesReused: number;
  warnings: string[];
}

/** The zsync control file URL for an app, or undefined when delta updates are off or impossible. */
export function zsyncControlUrl(settings: AppSettings, resolution: Resolution): string | undefined {
  const z = settings.zsync;
  if (z === false) return undefined;
  if (z === true) return `${resolution.url}.zsync`;
  if (z === 'auto') return resolution.zsyncUrl;
  return z;
}

/**
 * Fetches the asset: zsync against the installed file when configured (any failure falls back to a
 * full download, with a warning), else a plain or segmented download, which feeds `tap` the bytes.
 */
export async function fetchAsset(
  settings: AppSettings,
  resolution: Resolution,
  seedFile: string | undefined,
  run: Run,
  tap?: ByteTap,
): Promise<FetchedAsset> {
  const warnings: string[] = [];
  const { ctx } = run;
  const prefix = tempPrefix(settings.name);
  const stallTimeoutMs = settings.stall_timeout * 1000;
  const control = seedFile ? zsyncControlUrl(settings, resolution) : undefined;
  if (settings.zsync === 'auto' && seedFile && !control) {
    const message = 'zsync: auto, but the release has no .zsync asset; downloading the whole file';
    warnings.push(message);
    ctx.emit({ type: 'warning', app: settings.name, code: 'ZSYNC_NO_CONTROL', message });
  }
  // Bytes a failed delta attempt transferred: the report counts them on top of the full download.
  let spentOnZsync = 0;
  if (control && seedFile) {
    ctx.emit({
      type: 'download:start',
      app: settings.name,
      url: control,
      total: resolution.size,
      segmented: false,
    });
    try {
      const z = await zsyncDownload({
        controlUrl: control,
        seedPath: seedFile,
        destDir: settings.storage_dir,
        tempPrefix: prefix,
        stallTimeoutMs,
        signal: run.signal,
        onProgress: (fetched, total) =>
          ctx.emit({ type: 'download:progress', app: settings.name, received: fetched, total }),
      });
      if (resolution.size !== undefined && z.size !== resolution.size) {
        // A stale control file rebuilds an old file that its own SHA-1 happily confirms; the
        // release's size is the one independent check when the forge gives no digest.
        await rm(z.path, { force: true });
        throw new KeeperError(
          'ZSYNC_TARGET_CHANGED',
          `the control file describes ${z.size} bytes but the release's asset has ${resolution.size} (stale control file?)`,
          { details: { bytesFetched: z.bytesFetched } },
        );
      }
      ctx.emit({ type: 'download:end', app: settings.name, bytes: z.bytesFetched });
      return {
        path: z.path,
        size: z.size,
        sha256: undefined,
        method: 'zsync',
        bytesDownloaded: z.bytesFetched,
        bytesReused: z.bytesReused,
        warnings,
      };
    } catch (err) {
      if (run.signal.aborted) throw err;
      spentOnZsync = fetchedBeforeFailure(err);
      // Close the delta attempt's progress bar before the full download opens its own.
      ctx.emit({ type: 'download:end', app: settings.name, bytes: spentOnZsync });
      const why = err instanceof KeeperError ? `${err.code}: ${err.message}` : String(err);
      warnings.push(`zsync failed (${why}); fell back to a full download`);
      ctx.emit({
        type: 'warning',
        app: settings.name,
        code: 'ZSYNC_FALLBACK',
        message: warnings[warnings.length - 1] ?? why,
      });
    }
  }
  const result: DownloadResult = await run.downloadLimiter(resolution.url, () =>
    downloadResolution(settings, resolution, ctx, {
      destDir: settings.storage_dir,
      tempPrefix: prefix,
      tap,
      signal: run.signal,
    }),
  );
  return {
    path: result.path,
    size: result.size,
    sha256: result.sha256,
    method: result.segmented ? 'segmented' : 'plain',
    bytesDownloaded: result.size + spentOnZsync,
    bytesReused: 0,
    warnings,
  };
}

function fetchedBeforeFailure(err: unknown): number {
  const n = err instanceof KeeperError ? err.details?.bytesFetched : undefined;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** Deletes temp files, ignoring ones already gone. */
export async function removeTemps(...paths: (string | undefined)[]): Promise<void> {
  await Promise.all(paths.filter((p): p is string => !!p).map((p) => rm(p, { force: true })));
}
