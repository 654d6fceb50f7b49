import { open, type FileHandle } from 'node:fs/promises';
import { parseBlockMap, tailJsonLength, TRAILER_BYTES, type BlockMap } from './format.js';

/** The block map at the end of a local file, or undefined when it has none (or cannot be read). */
export async function readLocalBlockMap(path: string): Promise<BlockMap | undefined> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    const { size } = await fh.stat();
    const trailer = Buffer.alloc(TRAILER_BYTES);
    if (size <= TRAILER_BYTES) return undefined;
    await readExactly(fh, trailer, size - TRAILER_BYTES);
    const length = tailJsonLength(trailer, size);
    if (length === undefined) return undefined;
    const json = Buffer.alloc(length);
    await readExactly(fh, json, size - TRAILER_BYTES - length);
    return parseBlockMap(json, size);
  } catch {
    return undefined;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

async function readExactly(fh: FileHandle, buf: Buffer, position: number): Promise<void> {
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await fh.read(buf, got, buf.length - got, position + got);
    if (bytesRead === 0) throw new Error('file shorter than expected');
    got += bytesRead;
  }
}
