import { rm } from 'node:fs/promises';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { blockmapDownload, readLocalBlockMap, type BlockMap } from '../transfer/blockmap/index.js';
import type { ByteTap, DownloadResult } from '../transfer/download/index.js';
import { zsyncDownload } from '../transfer/zsync/index.js';
import type { HttpSettings } from '../http/settings.js';
import type { Resolution } from '../sources/types.js';
import { downloadResolution } from './download-resolution.js';
import { tempPrefix } from '../install/naming.js';
import type { ReleaseRun } from './app-run.js';
import type { Run } from './run.js';

/** A fetched asset in a temp file inside storage_dir, with how it was fetched. */
export interface FetchedAsset {
  path: string;
  size: number;
  /** SHA-256 computed while downloading; absent when a delta update assembled the file. */
  sha256: string | undefined;
  method: 'plain' | 'segmented' | 'zsync' | 'blockmap';
  /** Parallel connections of a full download (1 for plain). */
  connections?: number | undefined;
  /** Body bytes transferred for this asset, a failed delta attempt before a fallback included. */
  bytesDownloaded: number;
  bytesReused: number;
  warnings: string[];
}

/**
 * The zsync control file URL for an app, or undefined when zsync is off or impossible: the
 * recipe's `zsync` (true = <download URL>.zsync, a URL), else the release's published
 * `<asset>.zsync` unless `delta` rules zsync out.
 */
export function zsyncControlUrl(settings: AppSettings, resolution: Resolution): string | undefined {
  if (settings.delta === 'off' || settings.delta === 'blockmap') return undefined;
  const z = settings.zsync;
  if (z === true) return `${resolution.url}.zsync`;
  if (z === 'auto' || z === false) return resolution.zsyncUrl;
  return z;
}

/** What a delta attempt left behind: the finished asset, or the bytes a failed attempt spent. */
type DeltaAttempt = { asset: FetchedAsset } | { spent: number };

/** One asset fetch of one app: the app's run, the installed file to reuse blocks of, and its tallies. */
interface AssetFetch {
  app: ReleaseRun;
  seedFile: string;
  /** Records a warning in the result and emits it. */
  warn: (code: string, message: string) => void;
  count: ByteTally;
}

/**
 * Fetches the asset: a delta update against the installed file when `delta` allows one (a .zsync
 * file first, else the block maps both files carry; any failure falls back to a full download,
 * with a warning), else a plain or segmented download, which feeds `tap` the bytes.
 */
export async function fetchAsset(
  app: ReleaseRun,
  seedFile: string | undefined,
  tap?: ByteTap,
): Promise<FetchedAsset> {
  const { settings, release: resolution } = app;
  const warnings: string[] = [];
  const count = byteTally(app.run, settings.name);
  const warn = (code: string, message: string): void => {
    warnings.push(message);
    app.ctx.emit({ type: 'warning', app: settings.name, code, message });
  };
  // Bytes a failed delta attempt transferred: the report counts them on top of the full download.
  let spent = 0;
  if (seedFile && settings.delta !== 'off') {
    const job: AssetFetch = { app, seedFile, warn, count };
    const control = zsyncControlUrl(settings, resolution);
    // A block map describes the AppImage it ends; an archive around it has none of its own.
    const archive = resolution.assetName.toLowerCase().endsWith('.zip');
    const seedMap =
      control || archive || settings.delta === 'zsync' ? undefined : await readLocalBlockMap(seedFile);
    let attempt: DeltaAttempt | undefined;
    if (control) attempt = await tryZsync(job, control);
    else if (seedMap) attempt = await tryBlockmap(job, seedMap);
    else if (settings.delta === 'blockmap')
      warn(
        'BLOCKMAP_NONE_LOCAL',
        `delta: blockmap, but ${archive ? 'the asset is a ZIP archive' : 'the installed file carries no block map'}; downloading the whole file`,
      );
    else if (settings.zsync === 'auto' || settings.delta === 'zsync')
      warn(
        'ZSYNC_NO_CONTROL',
        `${settings.zsync === 'auto' ? 'zsync: auto' : 'delta: zsync'}, but the release has no .zsync asset; downloading the whole file`,
      );
    if (attempt && 'asset' in attempt) return { ...attempt.asset, warnings };
    spent = attempt?.spent ?? 0;
  }
  count.restart();
  return fullDownload(app, { spent, warnings, tap, count });
}

async function fullDownload(
  app: ReleaseRun,
  job: { spent: number; warnings: string[]; tap: ByteTap | undefined; count: ByteTally },
): Promise<FetchedAsset> {
  const { settings, release: resolution } = app;
  const result: DownloadResult = await app.run.downloadLimiter(resolution.url, () =>
    downloadResolution(settings, resolution, app.ctx, {
      destDir: settings.storage_dir,
      tempPrefix: tempPrefix(settings.name),
      tap: job.tap,
      signal: app.signal,
      onReceived: job.count,
    }),
  );
  return {
    path: result.path,
    size: result.size,
    sha256: result.sha256,
    method: result.segmented ? 'segmented' : 'plain',
    connections: result.connections,
    bytesDownloaded: result.size + job.spent,
    bytesReused: 0,
    warnings: job.warnings,
  };
}

/** Emits the progress events of a delta attempt around `work`; a failure becomes a warning. */
async function deltaAttempt(
  job: AssetFetch,
  url: string,
  label: 'zsync' | 'blockmap',
  work: (onProgress: (fetched: number, total: number) => void) => Promise<FetchedAsset>,
): Promise<DeltaAttempt> {
  const { ctx, settings, release } = job.app;
  ctx.emit({ type: 'download:start', app: settings.name, url, total: release.size, segmented: false });
  try {
    const asset = await work((fetched, total) => {
      job.count(fetched);
      ctx.emit({ type: 'download:progress', app: settings.name, received: fetched, total });
    });
    ctx.emit({ type: 'download:end', app: settings.name, bytes: asset.bytesDownloaded });
    return { asset };
  } catch (err) {
    if (job.app.signal.aborted) throw err;
    const spent = fetchedBeforeFailure(err);
    // Close the delta attempt's progress bar before the full download opens its own.
    ctx.emit({ type: 'download:end', app: settings.name, bytes: spent });
    const why = err instanceof KeeperError ? `${err.code}: ${err.message}` : String(err);
    job.warn(`${label.toUpperCase()}_FALLBACK`, `${label} failed (${why}); fell back to a full download`);
    return { spent };
  }
}

/** What both delta transfers are given: the HTTP settings, where to write, the bounds, and the app's signal. */
function deltaLimits(app: ReleaseRun): {
  http: HttpSettings;
  destDir: string;
  tempPrefix: string;
  stallTimeoutMs: number;
  minBytesPerSec: number;
  expectedSize: number | undefined;
  maxBytes: number;
  signal: AbortSignal;
} {
  const { settings } = app;
  return {
    http: app.ctx.http,
    destDir: settings.storage_dir,
    tempPrefix: tempPrefix(settings.name),
    stallTimeoutMs: settings.stall_timeout * 1000,
    minBytesPerSec: settings.min_rate,
    // A stale or hostile control file or block map is refused before anything is written.
    expectedSize: app.release.size,
    maxBytes: settings.max_asset_size,
    signal: app.signal,
  };
}

function tryZsync(job: AssetFetch, control: string): Promise<DeltaAttempt> {
  return deltaAttempt(job, control, 'zsync', async (onProgress) => {
    const z = await zsyncDownload({
      ...deltaLimits(job.app),
      controlUrl: control,
      seedPath: job.seedFile,
      onProgress,
    });
    return {
      path: z.path,
      size: z.size,
      sha256: undefined,
      method: 'zsync',
      bytesDownloaded: z.bytesFetched,
      bytesReused: z.bytesReused,
      warnings: [],
    };
  });
}

function tryBlockmap(job: AssetFetch, seedMap: BlockMap): Promise<DeltaAttempt> {
  const url = job.app.release.url;
  return deltaAttempt(job, url, 'blockmap', async (onProgress) => {
    const b = await blockmapDownload({
      ...deltaLimits(job.app),
      url,
      seedPath: job.seedFile,
      seedMap,
      onProgress,
    });
    return {
      path: b.path,
      size: b.size,
      sha256: undefined,
      method: 'blockmap',
      bytesDownloaded: b.bytesFetched,
      bytesReused: b.bytesReused,
      warnings: [],
    };
  });
}

function fetchedBeforeFailure(err: unknown): number {
  const n = err instanceof KeeperError ? err.details?.bytesFetched : undefined;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** Deletes temp files, ignoring ones already gone. */
export async function removeTemps(...paths: (string | undefined)[]): Promise<void> {
  await Promise.all(paths.filter((p): p is string => !!p).map((p) => rm(p, { force: true })));
}

/** Counts what each transfer of an app really received into `run.bytesByApp`. */
type ByteTally = ((onDisk: number) => void) & { restart(): void };

/** A progress counter that adds what each transfer really received to `run.bytesByApp`. */
function byteTally(run: Run, app: string): ByteTally {
  let last = 0;
  const count = (onDisk: number): void => {
    // A restart from byte 0 (a server that ignored a resume, or the next attempt) reports a
    // smaller total: new bytes are counted from there.
    if (onDisk < last) last = 0;
    run.bytesByApp.set(app, (run.bytesByApp.get(app) ?? 0) + onDisk - last);
    last = onDisk;
  };
  return Object.assign(count, {
    restart: () => {
      last = 0;
    },
  });
}
