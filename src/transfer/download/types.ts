import type { HttpPhase } from '../../http/errors.js';
import type { HttpSettings } from '../../http/settings.js';

/** What to download and how. */
export interface DownloadRequest {
  url: string;
  /** The run's network settings (`ctx.http`). */
  http: HttpSettings;
  /** Named in errors (default download; self-update for the tool's own executable). */
  phase?: HttpPhase;
  /** The temp file is created inside this directory (the install target, so the final rename is atomic). */
  destDir: string;
  /** Temp file name prefix, e.g. `.appimage-keeper-<app>-`, so leftovers can be found and cleaned. */
  tempPrefix: string;
  expectedSize?: number;
  /**
   * The most bytes any answer may have (the app's max_asset_size): a larger Content-Length is
   * refused before its body is read, and a body without one stops failing at this many bytes.
   */
  maxBytes?: number;
  /** ETag or Last-Modified known from resolving; used for If-Range when the server gives none. */
  validator?: string;
  segmented: boolean;
  /** Parallel connections for a segmented download (default 4). */
  connections: number;
  /** Smallest segment worth its own connection (default 4 MiB). */
  minSegmentBytes?: number;
  /** A connection that receives no byte for this long is abandoned and resumed. */
  stallTimeoutMs: number;
  /**
   * Fewer bytes per second than this over a whole `stallTimeoutMs` window fails the attempt with
   * DOWNLOAD_TOO_SLOW, retried like a stall (default 0: only silence counts).
   */
  minBytesPerSec?: number;
  /** Failed attempts in a row (without progress) per connection before giving up (default 4). */
  maxRetries?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  onProgress?: (received: number, total: number | undefined) => void;
  /**
   * The cache folder: when set, the bytes go to a partial kept there across runs (see
   * partial-store.ts) and a later download of the same URL resumes it; unset, nothing outlives the call.
   */
  resumeDir?: string | undefined;
  /** Sees every byte in file order as it is hashed (a second digest in the same pass). */
  tap?: ByteTap | undefined;
}

/** A consumer of the file's bytes in order; `reset` when the download restarts from byte 0. */
export interface ByteTap {
  update(chunk: Buffer): void;
  reset(): void;
}

/** A finished download: the temp file, fsynced, with its size and SHA-256. */
export interface DownloadResult {
  /** The temp file; the caller verifies it and renames it into place (or deletes it). */
  path: string;
  size: number;
  /** Hex SHA-256 of the file, computed while downloading (see docs/downloads.md). */
  sha256: string;
  /** Whether the bytes were fetched with parallel Range requests. */
  segmented: boolean;
  /** Connections used for the final transfer (1 for a plain GET). */
  connections: number;
  /** Attempts retried after transient failures (all connections). */
  retries: number;
  /** URL after redirects. */
  finalUrl: string;
  /** Bytes a previous, interrupted run had left and this one did not fetch again. */
  resumedBytes: number;
}
