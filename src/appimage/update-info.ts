/**
 * An AppImage's embedded update information: where its publisher says updates come from. Type 2
 * keeps it in the `.upd_info` ELF section (1024 bytes, NUL-padded), type 1 in the ISO 9660 primary
 * volume descriptor's application-use field at offset 33651 (512 bytes).
 */
import { open } from 'node:fs/promises';
import { KeeperError } from '../core/errors.js';
import { listSectionsOfHandle, readSectionOfHandle } from './elf-sections.js';

const UPDATE_SECTION = '.upd_info';
// The runtime reserves 1 KiB; anything much larger is not update information we should parse.
const MAX_SECTION_BYTES = 8 << 10;
const TYPE1_OFFSET = 33651;
const TYPE1_BYTES = 512;

/** Update information as its transports define it; `unknown` keeps the text of anything else. */
export type UpdateInfo =
  | { transport: 'none' }
  | { transport: 'gh-releases-zsync'; owner: string; repo: string; tag: string; pattern: string; raw: string }
  | { transport: 'zsync'; url: string; raw: string }
  | { transport: 'pling-v1-zsync'; id: string; pattern: string; raw: string }
  | { transport: 'unknown'; raw: string };

function cleanText(bytes: Buffer): string {
  const nul = bytes.indexOf(0);
  return bytes
    .subarray(0, nul === -1 ? bytes.length : nul)
    .toString('utf8')
    .trim();
}

/** Reads the raw update information string of an AppImage of `type` ('' when there is none). */
export async function readUpdateInfoText(path: string, type: 1 | 2): Promise<string> {
  const fh = await open(path, 'r');
  try {
    if (type === 1) {
      const buf = Buffer.alloc(TYPE1_BYTES);
      const { bytesRead } = await fh.read(buf, 0, TYPE1_BYTES, TYPE1_OFFSET);
      return cleanText(buf.subarray(0, bytesRead));
    }
    const section = (await listSectionsOfHandle(fh)).find((s) => s.name === UPDATE_SECTION);
    if (!section) return '';
    return cleanText(await readSectionOfHandle(fh, section, MAX_SECTION_BYTES));
  } catch (err) {
    if (err instanceof KeeperError) throw err;
    throw new KeeperError(
      'APPIMAGE_UPDATE_INFO_INVALID',
      `cannot read update information: ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  } finally {
    await fh.close();
  }
}

/** Parses an update information string (`transport|field|...`) into its fields. */
export function parseUpdateInfo(text: string): UpdateInfo {
  if (text === '') return { transport: 'none' };
  const parts = text.split('|');
  const [transport] = parts;
  if (transport === 'gh-releases-zsync' && parts.length === 5 && parts.every((p) => p !== '')) {
    const [, owner = '', repo = '', tag = '', pattern = ''] = parts;
    return { transport, owner, repo, tag, pattern, raw: text };
  }
  if (transport === 'zsync' && parts.length === 2 && /^https?:\/\//i.test(parts[1] ?? '')) {
    return { transport, url: parts[1] ?? '', raw: text };
  }
  if (transport === 'pling-v1-zsync' && parts.length === 3 && /^\d+$/.test(parts[1] ?? '') && parts[2]) {
    return { transport, id: parts[1] ?? '', pattern: parts[2] ?? '', raw: text };
  }
  return { transport: 'unknown', raw: text };
}
