import { createHash, type Hash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { ByteTap } from './types.js';

const READ_BACK_CHUNK = 1 << 20;

/**
 * SHA-256 of a file being written out of order. Bytes written exactly at the hashed frontier are
 * hashed from memory; when other connections have completed the bytes after the frontier, they
 * are read back from the file (still in the page cache) while the download goes on, so at the
 * end little or nothing is left to hash.
 */
export class PrefixHasher {
  private hash: Hash = createHash('sha256');
  private hashed = 0;
  private readBack: Promise<void> | undefined;
  private buffer: Buffer | undefined;
  private failure: Error | undefined;

  constructor(
    private readonly file: FileHandle,
    /** End of the bytes known to be on disk without a gap from offset 0. */
    private readonly contiguousEnd: () => number,
    /** Sees the same bytes in the same order (a second digest without a second read). */
    private readonly tap?: ByteTap,
  ) {}

  /** Bytes hashed so far (always a prefix of the file). */
  get hashedBytes(): number {
    return this.hashed;
  }

  /** Called after `buffers` were written at `position`. */
  written(position: number, buffers: readonly Buffer[]): void {
    if (position === this.hashed && this.readBack === undefined) {
      for (const b of buffers) {
        this.hash.update(b);
        this.tap?.update(b);
        this.hashed += b.length;
      }
      return;
    }
    this.catchUp();
  }

  /** Starts reading back completed bytes past the frontier, if any and not already doing so. */
  catchUp(): void {
    if (this.readBack !== undefined || this.contiguousEnd() <= this.hashed) return;
    this.readBack = this.readBackLoop()
      .catch((err: unknown) => {
        this.failure = err instanceof Error ? err : new Error(String(err));
      })
      .finally(() => {
        this.readBack = undefined;
      });
  }

  /** Hashes whatever is still missing up to `size` and returns the hex digest. */
  async digest(size: number): Promise<string> {
    while (this.readBack) await this.readBack;
    if (this.failure !== undefined) throw this.failure;
    if (this.hashed < size) await this.readBackLoop(size);
    return this.hash.digest('hex');
  }

  /** Forgets everything hashed (the download restarts from byte 0). */
  async reset(): Promise<void> {
    while (this.readBack) await this.readBack;
    this.hash = createHash('sha256');
    this.tap?.reset();
    this.hashed = 0;
    this.failure = undefined;
  }

  private async readBackLoop(limit?: number): Promise<void> {
    this.buffer ??= Buffer.allocUnsafe(READ_BACK_CHUNK);
    for (;;) {
      const end = limit ?? this.contiguousEnd();
      if (this.hashed >= end) return;
      const want = Math.min(READ_BACK_CHUNK, end - this.hashed);
      const { bytesRead } = await this.file.read(this.buffer, 0, want, this.hashed);
      if (bytesRead === 0) throw new Error(`temp file ended at ${this.hashed} while hashing`);
      this.hash.update(this.buffer.subarray(0, bytesRead));
      this.tap?.update(this.buffer.subarray(0, bytesRead));
      this.hashed += bytesRead;
    }
  }
}
