import { corrupt } from './errors.js';
import type { DirInode } from './inode.js';
import type { MetadataReader, TableBounds } from './metadata.js';
import type { MetaRef, Superblock } from './superblock.js';

/** One name in a directory listing and where its inode lives. */
export interface DirEntry {
  name: string;
  /** Basic inode type 1..7 as recorded in the listing. */
  type: number;
  inode: MetaRef;
  inodeNumber: number;
}

const MAX_ENTRIES_PER_HEADER = 256;
const MAX_NAME = 256;
const decoder = new TextDecoder('utf-8');

/**
 * Reads a directory listing: runs of (header: count-1, inode block, base inode number) followed by
 * entries (offset, inode delta, type, name size-1, name). Names are checked so no entry can act as a
 * path separator or parent reference.
 */
export async function readDirectory(
  meta: MetadataReader,
  sb: Superblock,
  bounds: TableBounds,
  dir: DirInode,
): Promise<DirEntry[]> {
  const cur = meta.cursor(dir.listing, bounds);
  const entries: DirEntry[] = [];
  const inodeTableSize = sb.directoryTableStart - sb.inodeTableStart;
  let left = dir.listingSize;
  while (left > 0) {
    if (left < 12) throw corrupt('directory listing ends inside a header');
    const h = await meta.read(cur, 12, bounds);
    left -= 12;
    const count = h.readUInt32LE(0) + 1;
    const block = h.readUInt32LE(4);
    const base = h.readUInt32LE(8);
    if (count > MAX_ENTRIES_PER_HEADER) throw corrupt(`directory header with ${count} entries`);
    if (block >= inodeTableSize) throw corrupt('directory entry inode block outside the inode table');
    for (let i = 0; i < count; i++) {
      if (left < 8) throw corrupt('directory listing ends inside an entry');
      const e = await meta.read(cur, 8, bounds);
      left -= 8;
      const offset = e.readUInt16LE(0);
      const delta = e.readInt16LE(2);
      const type = e.readUInt16LE(4);
      const nameSize = e.readUInt16LE(6) + 1;
      if (nameSize > MAX_NAME || nameSize > left) throw corrupt(`directory entry name of ${nameSize} bytes`);
      const name = decoder.decode(await meta.read(cur, nameSize, bounds));
      left -= nameSize;
      if (name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
        throw corrupt(`unsafe directory entry name ${JSON.stringify(name)}`);
      }
      if (type < 1 || type > 7) throw corrupt(`directory entry ${JSON.stringify(name)} has type ${type}`);
      const inodeNumber = base + delta;
      if (inodeNumber < 1 || inodeNumber > sb.inodeCount)
        throw corrupt(`entry ${JSON.stringify(name)} inode number out of range`);
      if (offset >= 8192) throw corrupt(`entry ${JSON.stringify(name)} inode offset out of range`);
      entries.push({ name, type, inode: { block, offset }, inodeNumber });
    }
  }
  return entries;
}
