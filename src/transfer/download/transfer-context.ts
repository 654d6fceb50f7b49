import type { FileHandle } from 'node:fs/promises';
import type { HttpPhase } from '../../http/errors.js';
import type { HttpSettings } from '../../http/settings.js';
import type { ByteRanges } from './partial-store.js';
import type { ByteTap } from './types.js';

/** What the plain and segmented transfers share: the file, settings, and run-wide counters. */
export interface TransferContext {
  /** The URL the caller asked for (named in errors). */
  url: string;
  /** The run's network settings. */
  http: HttpSettings;
  /** download, or self-update for the tool's own executable (named in errors). */
  phase: HttpPhase;
  file: FileHandle;
  headers: Record<string, string>;
  signal: AbortSignal | undefined;
  stallTimeoutMs: number;
  /** Fewer bytes per second than this over a stall_timeout window is a stall too (0 = no rule). */
  minBytesPerSec: number;
  maxRetries: number;
  expectedSize: number | undefined;
  /** The most bytes the file may have, whatever the server says (see DownloadRequest.maxBytes). */
  maxBytes: number | undefined;
  /** Retries over the whole download, all connections. */
  retries: number;
  /** Fed the file's bytes in order alongside the SHA-256. */
  tap: ByteTap | undefined;
  /** Reports bytes on disk so far. */
  progress: (received: number, total: number | undefined) => void;
  /** Told what the file on disk holds whenever that changes shape (start, restart), for resume across runs. */
  onPlan?: ((plan: DiskPlan) => void) | undefined;
}

/** What the bytes on disk are: the version (validator, size) and the completed ranges, read on demand. */
export interface DiskPlan {
  validator: string | undefined;
  size: number | undefined;
  ranges: () => ByteRanges;
}

/** Outcome of a transfer: bytes written and the digest of the file. */
export interface TransferOutcome {
  size: number;
  sha256: string;
  finalUrl: string;
  segmented: boolean;
  connections: number;
  /** The transfer started over from byte 0 after it had begun (a plain download answered 200). */
  restarted?: boolean;
}
