import { open, rm, type FileHandle } from 'node:fs/promises';
import type { HttpSettings } from '../../http/settings.js';
import { KeeperError } from '../../core/errors.js';
import { ownedTempPath } from '../../core/atomic-files.js';
import { BlockHasher } from './block-hasher.js';
import { BlockMatcher } from './block-matcher.js';
import { parseControlFile, type ZsyncControl } from './control-file.js';
import { fetchControlFile } from './control-fetch.js';
import { zsyncError } from './errors.js';
import { fileSha1 } from './file-sha1.js';
import type { HttpSession } from './http.js';
import { fetchMissingBlocks } from './range-fetch.js';
import { newSession, withTransferCounts } from '../ranges/session.js';
import { scanSeed } from './seed-scan.js';

export { parseControlFile, type ZsyncControl } from './control-file.js';

/** One delta update: rebuild the target of `controlUrl` from the installed file plus fetched blocks. */
export interface ZsyncRequest {
  controlUrl: string;
  /** The run's network settings (`ctx.http`). */
  http: HttpSettings;
  /** The installed AppImage. */
  seedPath: string;
  /** The temp file is created in this directory (same filesystem as the final file). */
  destDir: string;
  /** Temp file names start with this, so leftovers can be found and cleaned. */
  tempPrefix: string;
  stallTimeoutMs: number;
  /** Fewer bytes per second than this over a stall-timeout window is a stall (ZSYNC_TOO_SLOW; default 0: off). */
  minBytesPerSec?: number | undefined;
  /** Size of the release's asset when known: a control file describing another length is refused before anything is written. */
  expectedSize?: number | undefined;
  /** The most bytes the result may have (max_asset_size): a control file claiming more is refused. */
  maxBytes?: number | undefined;
  signal?: AbortSignal;
  /** Ranges per multi-range request (default 32). */
  maxRangesPerRequest?: number;
  /** Target bytes fetched so far and in total to fetch (0/0 when the seed already has everything). */
  onProgress?: (fetched: number, total: number) => void;
}

/** A complete, verified target file in `destDir`, ready to be renamed into place by the caller. */
export interface ZsyncResult {
  /** Temp file in destDir, complete, SHA-1 verified and fsynced. */
  path: string;
  size: number;
  sha1: string;
  /** Target bytes copied from the seed. */
  bytesReused: number;
  /** Body bytes of every response: control file and range responses (multipart framing included). */
  bytesFetched: number;
  /** HTTP requests sent, control file and redirects included. */
  requests: number;
  /** URL the blocks were fetched from (the control file's `URL:` resolved, after redirects). */
  targetUrl: string;
}

const DEFAULT_MAX_RANGES = 32;

/**
 * The target URL of a control file: the first `URL:` header, resolved against the control file's
 * URL as requested (not the redirected one: a CDN's signed URL is no base for a sibling file).
 */
export function resolveTargetUrl(control: ZsyncControl, controlUrl: string): string {
  const raw = control.urls[0];
  if (raw === undefined)
    throw zsyncError(
      'CONTROL_UNSUPPORTED',
      'the control file only offers a gzip-compressed target (Z-URL), which is not supported',
    );
  let url: URL;
  try {
    url = new URL(raw, controlUrl);
  } catch (cause) {
    throw zsyncError('CONTROL_INVALID', `invalid URL in the control file: "${raw}"`, { cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw zsyncError('CONTROL_INVALID', `the control file's URL is not http(s): ${url.toString()}`);
  return url.toString();
}

/**
 * Rebuilds the file a `.zsync` control file describes from the local seed plus HTTP range
 * requests for the blocks the seed lacks. On any failure the temp file is removed and a
 * `ZSYNC_*` KeeperError is thrown, so the caller can fall back to a full download; its
 * `details.bytesFetched` and `details.requests` count what the failed attempt transferred.
 */
export async function zsyncDownload(req: ZsyncRequest): Promise<ZsyncResult> {
  const session = newSession(req.http, req.stallTimeoutMs, req.signal, req.minBytesPerSec);
  try {
    return await rebuild(req, session);
  } catch (err) {
    throw withTransferCounts(err, session);
  }
}

async function rebuild(req: ZsyncRequest, session: HttpSession): Promise<ZsyncResult> {
  const control = parseControlFile(await fetchControlFile(session, req.controlUrl));
  const expectedSha1 = control.sha1;
  if (expectedSha1 === undefined)
    throw zsyncError('CONTROL_INVALID', 'the control file has no SHA-1, so the result could not be verified');
  let targetUrl = resolveTargetUrl(control, req.controlUrl);
  if (req.expectedSize !== undefined && control.length !== req.expectedSize) {
    // A stale control file rebuilds an old file that its own SHA-1 happily confirms, and a
    // hostile one claims any length; the release's size is the independent check.
    throw zsyncError(
      'TARGET_CHANGED',
      `the control file describes ${control.length} bytes but the release's asset has ${req.expectedSize} (stale control file?)`,
    );
  }
  if (req.maxBytes !== undefined && control.length > req.maxBytes)
    throw zsyncError(
      'TARGET_TOO_LARGE',
      `the control file describes ${control.length} bytes, over max_asset_size (${req.maxBytes})`,
    );

  const path = await ownedTempPath(req.destDir, req.tempPrefix, 'zsync');
  let out: FileHandle | undefined;
  try {
    try {
      out = await open(path, 'wx+');
      await out.truncate(control.length);
    } catch (cause) {
      throw zsyncError('IO', `cannot create ${path}`, { cause });
    }
    const hasher = await BlockHasher.create();
    const matcher = new BlockMatcher(control, hasher);
    const bytesReused = await scanSeed({
      seedPath: req.seedPath,
      matcher,
      out,
      blockSize: control.blockSize,
      length: control.length,
      signal: req.signal,
    });
    if (matcher.blocksFound < control.blockCount) {
      targetUrl = await fetchMissingBlocks({
        session,
        url: targetUrl,
        control,
        matcher,
        hasher,
        out,
        maxRangesPerRequest: req.maxRangesPerRequest ?? DEFAULT_MAX_RANGES,
        onProgress: req.onProgress,
      });
    } else {
      req.onProgress?.(0, 0);
    }
    const sha1 = await fileSha1(out, control.length);
    if (sha1 !== expectedSha1)
      throw zsyncError(
        'CHECKSUM',
        `the rebuilt file's SHA-1 is ${sha1}, the control file says ${expectedSha1}`,
        {
          details: { expected: expectedSha1, actual: sha1 },
        },
      );
    await out.sync();
    await out.close();
    out = undefined;
    return {
      path,
      size: control.length,
      sha1,
      bytesReused,
      bytesFetched: session.bytesFetched,
      requests: session.requests,
      targetUrl,
    };
  } catch (err) {
    await out?.close().catch(() => undefined);
    await rm(path, { force: true });
    if (err instanceof KeeperError) throw err;
    throw zsyncError(
      'IO',
      `zsync failed while writing ${path}: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
}
