import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/** SHA-1 (hex) of the first `length` bytes of an open file, read in large chunks. */
export async function fileSha1(fh: FileHandle, length: number): Promise<string> {
  const hash = createHash('sha1');
  const buf = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, Math.max(length, 1)));
  let pos = 0;
  while (pos < length) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, length - pos), pos);
    if (bytesRead === 0) break;
    hash.update(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return hash.digest('hex');
}
