import { open, rm, type FileHandle } from 'node:fs/promises';
import type { HttpSettings } from '../../http/settings.js';
import { KeeperError } from '../../core/errors.js';
import { ownedTempPath } from '../../core/atomic-files.js';
import { fetchRuns } from '../ranges/fetch-runs.js';
import { offsetsLayout } from '../ranges/runs.js';
import { newSession, withTransferCounts } from '../ranges/session.js';
import type { HttpSession } from '../zsync/http.js';
import { ChunkHasher } from './chunk-hasher.js';
import { ChunkReceiver } from './chunk-receiver.js';
import { copyChunks, writeAll } from './copy-chunks.js';
import { blockmapCode, blockmapError } from './errors.js';
import type { BlockMap } from './format.js';
import { readLocalBlockMap } from './local-map.js';
import { planCopies } from './plan.js';
import { fetchRemoteBlockMap } from './remote-map.js';

export { readLocalBlockMap } from './local-map.js';
export type { BlockMap } from './format.js';

/** One block map delta update: rebuild the file at `url` from the installed file plus fetched chunks. */
export interface BlockmapRequest {
  /** The new asset's download URL (redirects are followed). */
  url: string;
  /** The installed AppImage. */
  seedPath: string;
  /** Its block map, when the caller already read it. */
  seedMap?: BlockMap | undefined;
  /** The new file's size when the release states it: a different size stops before any chunk. */
  expectedSize?: number | undefined;
  /** The most bytes the new file may have (max_asset_size): a block map describing more is refused. */
  maxBytes?: number | undefined;
  /** The temp file is created in this directory (same filesystem as the final file). */
  destDir: string;
  /** Temp file names start with this, so leftovers can be found and cleaned. */
  tempPrefix: string;
  /** The run's network settings (`ctx.http`). */
  http: HttpSettings;
  stallTimeoutMs: number;
  /** Fewer bytes per second than this over a stall-timeout window is a stall too (default 0: off). */
  minBytesPerSec?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Ranges per multi-range request (default 32). */
  maxRangesPerRequest?: number;
  /** New-file bytes fetched so far and in total to fetch (0/0 when the old file has everything). */
  onProgress?: (fetched: number, total: number) => void;
}

/** A complete new file in `destDir`, every chunk verified, ready for the usual checks and rename. */
export interface BlockmapResult {
  /** Temp file in destDir, complete and fsynced. */
  path: string;
  size: number;
  /** Bytes copied from the installed file. */
  bytesReused: number;
  /** Body bytes of every response: the tail and the chunk ranges (multipart framing included). */
  bytesFetched: number;
  /** HTTP requests sent, redirects included. */
  requests: number;
  /** Chunks of the new file, and how many of them came from the installed file. */
  chunks: number;
  chunksCopied: number;
}

const DEFAULT_MAX_RANGES = 32;

/**
 * Rebuilds the file at `url` from the installed file using the block maps both carry (as
 * electron-builder appends them): copies the chunks the old file holds, each checked against the
 * new map's BLAKE2b, and fetches the rest with multi-range requests. On any failure the temp file
 * is removed and a `BLOCKMAP_*` KeeperError is thrown (details: bytesFetched, requests), so the
 * caller can fall back to a full download.
 */
export async function blockmapDownload(req: BlockmapRequest): Promise<BlockmapResult> {
  const session = newSession(req.http, req.stallTimeoutMs, req.signal, req.minBytesPerSec);
  try {
    return await rebuild(req, session);
  } catch (err) {
    throw withTransferCounts(err, session, blockmapCode);
  }
}

async function rebuild(req: BlockmapRequest, session: HttpSession): Promise<BlockmapResult> {
  const old = req.seedMap ?? (await readLocalBlockMap(req.seedPath));
  if (!old) throw blockmapError('NONE_LOCAL', `the installed file ${req.seedPath} carries no block map`);
  const remote = await fetchRemoteBlockMap(session, req.url, {
    expectedSize: req.expectedSize,
    maxBytes: req.maxBytes,
  });
  const next = remote.map;
  const runs = planCopies(old, next);
  const known = new Uint8Array(next.sizes.length);
  // Owner-tagged like every temp file, so a killed run's leftover is recognised and cleaned.
  const path = await ownedTempPath(req.destDir, req.tempPrefix, 'blockmap');
  let out: FileHandle | undefined;
  let seed: FileHandle | undefined;
  try {
    try {
      out = await open(path, 'wx+');
      await out.truncate(next.fileSize);
      seed = await open(req.seedPath, 'r');
    } catch (cause) {
      throw blockmapError('IO', `cannot create ${path} or read ${req.seedPath}`, { cause });
    }
    await writeAll(out, remote.tail, next.fileSize - next.tailSize);
    const hasher = await ChunkHasher.create();
    const bytesReused = await copyChunks({ seed, out, next, runs, hasher, known, signal: req.signal });
    await seed.close();
    seed = undefined;
    const chunksCopied = known.reduce((n, k) => n + k, 0);
    if (chunksCopied < known.length) {
      const target = out;
      await fetchRuns({
        session,
        url: remote.url,
        layout: offsetsLayout(next.offsets, next.fileSize - next.tailSize),
        known,
        maxRangesPerRequest: req.maxRangesPerRequest ?? DEFAULT_MAX_RANGES,
        sinkFor: (url) => new ChunkReceiver(next, hasher, known, target, url),
        onProgress: req.onProgress,
      });
    } else {
      req.onProgress?.(0, 0);
    }
    await out.sync();
    await out.close();
    out = undefined;
    return {
      path,
      size: next.fileSize,
      bytesReused,
      bytesFetched: session.bytesFetched,
      requests: session.requests,
      chunks: known.length,
      chunksCopied,
    };
  } catch (err) {
    await seed?.close().catch(() => undefined);
    await out?.close().catch(() => undefined);
    await rm(path, { force: true });
    if (err instanceof KeeperError) throw err;
    throw blockmapError(
      'IO',
      `block map update failed while writing ${path}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}
