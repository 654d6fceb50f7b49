import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { KeeperError } from '../core/errors.js';
import { readSectionLayout, readSectionOfHandle } from './elf-sections.js';
import { KEY_SECTION, SIGNATURE_SECTION, signatureRanges, zeroRangesOf } from './zeroed-digest.js';

/** The signature an AppImage carries in its runtime's ELF sections. */
export interface EmbeddedSignature {
  /** Contents of `.sha256_sig`, trailing NUL padding removed: an armoured detached signature. */
  signature: Buffer;
  /** Contents of `.sig_key`, trailing NUL padding removed; undefined when absent or empty. */
  key: Buffer | undefined;
  /** File ranges [start, end) of both sections: zeroed when computing the signed digest. */
  zeroRanges: [number, number][];
}

// The runtime reserves 1 KiB and 8 KiB; a larger section is not a signature we should parse.
const MAX_SECTION_BYTES = 64 << 10;
const CHUNK = 1 << 20;

function trimPadding(b: Buffer): Buffer {
  let end = b.length;
  while (end > 0 && (b[end - 1] === 0 || b[end - 1] === 0x0a || b[end - 1] === 0x20)) end--;
  return b.subarray(0, end);
}

/**
 * Reads `.sha256_sig` and `.sig_key`. Undefined means unsigned: no signature section, or one that is
 * all zeros (the runtime reserves it in every AppImage), or a file whose sections have no names
 * (no section table, or e_shstrndx SHN_UNDEF). Section headers that lie are SIG_BAD.
 */
export async function readEmbeddedSignature(path: string): Promise<EmbeddedSignature | undefined> {
  const fh = await open(path, 'r');
  try {
    let sections;
    let zeroRanges: [number, number][];
    try {
      const layout = await readSectionLayout(fh);
      sections = layout.sections;
      zeroRanges = layout.bounds ? signatureRanges(sections, layout.bounds) : [];
    } catch (err) {
      throw new KeeperError('SIG_BAD', `cannot read the signature sections: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const sigSection = sections.find((s) => s.name === SIGNATURE_SECTION);
    if (!sigSection) return undefined;
    const keySection = sections.find((s) => s.name === KEY_SECTION);
    const read = async (s: typeof sigSection): Promise<Buffer> => {
      try {
        return await readSectionOfHandle(fh, s, MAX_SECTION_BYTES);
      } catch (err) {
        throw new KeeperError('SIG_BAD', `cannot read section ${s.name}: ${(err as Error).message}`, {
          cause: err,
        });
      }
    };
    const signature = trimPadding(await read(sigSection));
    if (signature.length === 0) return undefined;
    const key = keySection ? trimPadding(await read(keySection)) : undefined;
    return { signature, key: key && key.length > 0 ? key : undefined, zeroRanges };
  } finally {
    await fh.close();
  }
}

/**
 * Hex SHA-256 of the file with the given ranges read as zeros: what an AppImage signature signs.
 * Streamed in 1 MiB chunks, so a 200 MB file costs 1 MiB of memory.
 */
export async function sha256WithZeroedRanges(
  path: string,
  ranges: readonly [number, number][],
): Promise<string> {
  const hash = createHash('sha256');
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let pos = 0; ;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (bytesRead === 0) break;
      hash.update(zeroRangesOf(buf.subarray(0, bytesRead), pos, ranges));
      pos += bytesRead;
    }
  } finally {
    await fh.close();
  }
  return hash.digest('hex');
}
