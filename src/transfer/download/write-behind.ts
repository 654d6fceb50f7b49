import type { FileHandle } from 'node:fs/promises';

// Dirty pages are handed to the disk in slices of this size while the download goes on.
const FLUSH_EVERY_BYTES = 32 * 1024 * 1024;

/**
 * Flushes the temp file to disk in the background as it grows (one fdatasync in flight at a
 * time), so the fsync that ends the download has only the last slice left to write instead of
 * the whole file. The final fsync stays the guarantee; this only moves disk work earlier.
 */
export class WriteBehind {
  private flushing: Promise<void> | undefined;
  private flushedAt = 0;
  private failure: Error | undefined;

  constructor(private readonly file: FileHandle) {}

  /** Bytes now on disk (page cache); starts a flush when enough accumulated since the last one. */
  written(bytes: number): void {
    if (bytes < this.flushedAt) this.flushedAt = 0; // the file restarted from byte 0
    if (this.flushing || bytes - this.flushedAt < FLUSH_EVERY_BYTES) return;
    this.flushedAt = bytes;
    this.flushing = this.file
      .datasync()
      .catch((err: unknown) => {
        this.failure ??= err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        this.flushing = undefined;
      });
  }

  /** Waits for the flush in flight; throws the first flush error (a failing disk fails the download). */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.failure !== undefined) throw this.failure;
  }

  /** Waits for the flush in flight and ignores its outcome (the download failed anyway). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }
}
