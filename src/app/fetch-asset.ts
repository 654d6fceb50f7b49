import { rm } from 'node:fs/promises';
import type { AppSettings } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { blockmapDownload, readLocalBlockMap, type BlockMap } from '../transfer/blockmap/index.js';
import type { ByteTap, DownloadResult } from '../transfer/download/index.js';
import { zsyncDownload } from '../transfer/zsync/index.js';
import type { Resolution } from '../sources/types.js';
import { downloadResolution } from './download-resolution.js';
import { tempPrefix } from '../install/naming.js';
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

/**
 * Fetches the asset: a delta update against the installed file when `delta` allows one (a .zsync
 * file first, else the block maps both files carry; any failure falls back to a full download,
 * with a warning), else a plain or segmented download, which feeds `tap` the bytes.
 */
export async function fetchAsset(
  settings: AppSettings,
  resolution: Resolution,
  seedFile: string | undefined,
  run: Run,
  tap?: ByteTap,
): Promise<FetchedAsset> {
  const warnings: string[] = [];
  const count = byteTally(run, settings.name);
  const warn = (code: string, message: string): void => {
    warnings.push(message);
    run.ctx.emit({ type: 'warning', app: settings.name, code, message });
  };
  // Bytes a failed delta attempt transferred: the report counts them on top of the full download.
  let spent = 0;
  if (seedFile && settings.delta !== 'off') {
    const control = zsyncControlUrl(settings, resolution);
    // A block map describes the AppImage it ends; an archive around it has none of its own.
    const archive = resolution.assetName.toLowerCase().endsWith('.zip');
    const seedMap =
      control || archive || settings.delta === 'zsync' ? undefined : await readLocalBlockMap(seedFile);
    let attempt: DeltaAttempt | undefined;
    if (control) attempt = await tryZsync(settings, resolution, control, seedFile, run, warn, count);
    else if (seedMap) attempt = await tryBlockmap(settings, resolution, seedFile, seedMap, run, warn, count);
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
  return fullDownload(settings, resolution, run, spent, warnings, tap, count);
}

async function fullDownload(
  settings: AppSettings,
  resolution: Resolution,
  run: Run,
  spent: number,
  warnings: string[],
  tap: ByteTap | undefined,
  count: ByteTally,
): Promise<FetchedAsset> {
  const result: DownloadResult = await run.downloadLimiter(resolution.url, () =>
    downloadResolution(settings, resolution, run.ctx, {
      destDir: settings.storage_dir,
      tempPrefix: tempPrefix(settings.name),
      tap,
      signal: run.signal,
      onReceived: count,
    }),
  );
  return {
    path: result.path,
    size: result.size,
    sha256: result.sha256,
    method: result.segmented ? 'segmented' : 'plain',
    connections: result.connections,
    bytesDownloaded: result.size + spent,
    bytesReused: 0,
    warnings,
  };
}

/** Emits the progress events of a delta attempt around `work`; a failure becomes a warning. */
async function deltaAttempt(
  settings: AppSettings,
  resolution: Resolution,
  url: string,
  label: string,
  run: Run,
  warn: (code: string, message: string) => void,
  count: ByteTally,
  work: (onProgress: (fetched: number, total: number) => void) => Promise<FetchedAsset>,
): Promise<DeltaAttempt> {
  const { ctx } = run;
  ctx.emit({ type: 'download:start', app: settings.name, url, total: resolution.size, segmented: false });
  try {
    const asset = await work((fetched, total) => {
      count(fetched);
      ctx.emit({ type: 'download:progress', app: settings.name, received: fetched, total });
    });
    ctx.emit({ type: 'download:end', app: settings.name, bytes: asset.bytesDownloaded });
    return { asset };
  } catch (err) {
    if (run.signal.aborted) throw err;
    const spent = fetchedBeforeFailure(err);
    // Close the delta attempt's progress bar before the full download opens its own.
    ctx.emit({ type: 'download:end', app: settings.name, bytes: spent });
    const why = err instanceof KeeperError ? `${err.code}: ${err.message}` : String(err);
    warn(`${label.toUpperCase()}_FALLBACK`, `${label} failed (${why}); fell back to a full download`);
    return { spent };
  }
}

function tryZsync(
  settings: AppSettings,
  resolution: Resolution,
  control: string,
  seedFile: string,
  run: Run,
  warn: (code: string, message: string) => void,
  count: ByteTally,
): Promise<DeltaAttempt> {
  return deltaAttempt(settings, resolution, control, 'zsync', run, warn, count, async (onProgress) => {
    const z = await zsyncDownload({
      controlUrl: control,
      http: run.ctx.http,
      seedPath: seedFile,
      destDir: settings.storage_dir,
      tempPrefix: tempPrefix(settings.name),
      stallTimeoutMs: settings.stall_timeout * 1000,
      minBytesPerSec: settings.min_rate,
      // A stale or hostile control file is refused before anything is written.
      expectedSize: resolution.size,
      maxBytes: settings.max_asset_size,
      signal: run.signal,
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

function tryBlockmap(
  settings: AppSettings,
  resolution: Resolution,
  seedFile: string,
  seedMap: BlockMap,
  run: Run,
  warn: (code: string, message: string) => void,
  count: ByteTally,
): Promise<DeltaAttempt> {
  return deltaAttempt(
    settings,
    resolution,
    resolution.url,
    'blockmap',
    run,
    warn,
    count,
    async (onProgress) => {
      const b = await blockmapDownload({
        url: resolution.url,
        http: run.ctx.http,
        seedPath: seedFile,
        seedMap,
        expectedSize: resolution.size,
        maxBytes: settings.max_asset_size,
        destDir: settings.storage_dir,
        tempPrefix: tempPrefix(settings.name),
        stallTimeoutMs: settings.stall_timeout * 1000,
        minBytesPerSec: settings.min_rate,
        signal: run.signal,
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
    },
  );
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
