import type { FileHandle } from 'node:fs/promises';
import { corrupt } from './errors.js';

/**
 * Positional reads of the SquashFS image inside a file (the image starts at `base`), with a counter
 * of the bytes actually read so callers can prove they read only what they needed.
 */
export class ImageSource {
  bytesRead = 0;
  /** Reads are refused past this point (the image size, then the superblock's bytes_used). */
  limit: number;

  constructor(
    private readonly fh: FileHandle,
    private readonly base: number,
    readonly size: number,
  ) {
    this.limit = size;
  }

  /** Reads exactly `length` bytes at image position `pos`; anything out of bounds is corruption. */
  async read(pos: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(pos) || !Number.isSafeInteger(length) || pos < 0 || length < 0) {
      throw corrupt(`invalid read at ${pos} (+${length})`);
    }
    if (pos + length > this.limit) {
      throw corrupt(`read of ${length} bytes at ${pos} runs past the end of the image (${this.limit})`);
    }
    const buf = Buffer.allocUnsafe(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await this.fh.read(buf, done, length - done, this.base + pos + done);
      if (bytesRead === 0) throw corrupt(`unexpected end of file at ${pos + done}`);
      done += bytesRead;
      this.bytesRead += bytesRead;
    }
    return buf;
  }

  /** Closes the underlying file. */
  async close(): Promise<void> {
    await this.fh.close();
  }
}
