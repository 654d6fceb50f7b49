/**
 * The compressed release asset (`<executable>.zst`): decoded next to the executable after its
 * digest was checked, at most `maxBytes` of output, so a hostile or damaged stream can neither
 * fill the disk nor the memory. The ELF and architecture checks then apply to what it decoded.
 */
import { createReadStream } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { Decompress } from 'fzstd';
import { zstdFrameAllocation } from '../../appimage/squashfs/decompress.js';
import { KeeperError } from '../../core/errors.js';

function unpackError(assetName: string, why: string): KeeperError {
  return new KeeperError('SELF_UPDATE_UNPACK', `${assetName} does not decompress: ${why}`, {
    hint: 'the release asset is damaged or not a zstd stream; the current executable was kept',
  });
}

/**
 * Decodes the zstd file `src` into the new file `dest` (mode 0600; the caller sets the final one)
 * and returns the bytes written. SELF_UPDATE_SIZE past `maxBytes`, SELF_UPDATE_UNPACK for a
 * stream that does not decode; `dest` is removed on any failure.
 */
export async function unpackZstd(
  src: string,
  dest: string,
  maxBytes: number,
  assetName: string,
): Promise<number> {
  const out = await open(dest, 'wx', 0o600);
  let total = 0;
  let pending: Uint8Array[] = [];
  let first = true;
  const tooLarge = () =>
    new KeeperError('SELF_UPDATE_SIZE', `${assetName} decompresses to more than ${maxBytes} bytes`, {
      hint: 'the release asset is not a standalone executable of this tool',
    });
  try {
    const decoder = new Decompress((chunk) => {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge();
      pending.push(chunk);
    });
    const flush = async () => {
      for (const chunk of pending) await out.write(chunk);
      pending = [];
    };
    const push = (chunk: Uint8Array, final: boolean) => {
      try {
        decoder.push(chunk, final);
      } catch (err) {
        if (err instanceof KeeperError) throw err;
        throw unpackError(assetName, (err as Error).message);
      }
    };
    for await (const raw of createReadStream(src, { highWaterMark: 1 << 20 })) {
      const chunk = raw as Buffer;
      if (first) {
        first = false;
        // fzstd allocates from the frame header: refuse a frame that claims too much up front.
        const alloc = zstdFrameAllocation(chunk);
        if (alloc === undefined) throw unpackError(assetName, 'no zstd frame at its start');
        if (alloc > maxBytes) throw tooLarge();
      }
      push(chunk, false);
      await flush();
    }
    if (first) throw unpackError(assetName, 'the file is empty');
    push(new Uint8Array(0), true);
    await flush();
    await out.close();
    return total;
  } catch (err) {
    await out.close().catch(() => undefined);
    await rm(dest, { force: true });
    throw err;
  }
}
