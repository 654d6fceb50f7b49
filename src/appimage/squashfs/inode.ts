import { corrupt } from './errors.js';
import type { MetaCursor, MetadataReader, TableBounds } from './metadata.js';
import type { Superblock } from './superblock.js';

/** Basic inode types (extended types are these + 7). */
export const InodeType = {
  dir: 1,
  file: 2,
  symlink: 3,
  blockDev: 4,
  charDev: 5,
  fifo: 6,
  socket: 7,
} as const;

const NO_FRAGMENT = 0xffffffff;
const MAX_SYMLINK_TARGET = 4096;
/** A directory listing bigger than this is not something an AppImage needs (and likely hostile). */
const MAX_DIRECTORY_SIZE = 16 << 20;
/** Compression ratio beyond which a file size is treated as a lie (sparse zero files aside). */
const MAX_EXPANSION = 4096;

interface InodeCommon {
  /** Basic type 1..7 (extended inodes are folded onto their basic type). */
  type: number;
  mode: number;
  uidIndex: number;
  gidIndex: number;
  mtime: number;
  inodeNumber: number;
}

export interface DirInode extends InodeCommon {
  kind: 'dir';
  /** Directory-table-relative position of the listing. */
  listing: { block: number; offset: number };
  /** Listing size in bytes (the stored size minus the 3 bytes of the implicit . and ..). */
  listingSize: number;
  parentInode: number;
}

export interface FileInode extends InodeCommon {
  kind: 'file';
  blocksStart: number;
  size: number;
  /** Fragment table index, undefined when the file has no tail in a fragment. */
  fragment: number | undefined;
  fragmentOffset: number;
  blockCount: number;
  /** Where the block size list starts (right after the inode). */
  blockList: MetaCursor;
}

export interface SymlinkInode extends InodeCommon {
  kind: 'symlink';
  target: string;
}

export interface OtherInode extends InodeCommon {
  kind: 'other';
}

export type Inode = DirInode | FileInode | SymlinkInode | OtherInode;

/** Parses the inode at `cur` in the inode table, validating every size against the image. */
export async function readInode(
  meta: MetadataReader,
  sb: Superblock,
  bounds: TableBounds,
  cur: MetaCursor,
): Promise<Inode> {
  const head = await meta.read(cur, 16, bounds);
  const rawType = head.readUInt16LE(0);
  if (rawType < 1 || rawType > 14) throw corrupt(`unknown inode type ${rawType}`);
  const extended = rawType > 7;
  const common: InodeCommon = {
    type: extended ? rawType - 7 : rawType,
    mode: head.readUInt16LE(2),
    uidIndex: head.readUInt16LE(4),
    gidIndex: head.readUInt16LE(6),
    mtime: head.readUInt32LE(8),
    inodeNumber: head.readUInt32LE(12),
  };
  if (common.inodeNumber < 1 || common.inodeNumber > sb.inodeCount) {
    throw corrupt(`inode number ${common.inodeNumber} outside 1..${sb.inodeCount}`);
  }
  if (common.uidIndex >= sb.idCount || common.gidIndex >= sb.idCount)
    throw corrupt('uid/gid index outside the id table');

  switch (common.type) {
    case InodeType.dir:
      return extended ? readExtendedDir(meta, bounds, cur, common) : readBasicDir(meta, bounds, cur, common);
    case InodeType.file:
      return readFile(meta, sb, bounds, cur, common, extended);
    case InodeType.symlink: {
      const b = await meta.read(cur, 8, bounds);
      const targetSize = b.readUInt32LE(4);
      if (targetSize === 0 || targetSize > MAX_SYMLINK_TARGET)
        throw corrupt(`symlink target size ${targetSize}`);
      const target = (await meta.read(cur, targetSize, bounds)).toString('utf8');
      if (target.includes('\0')) throw corrupt('symlink target contains NUL');
      return { ...common, kind: 'symlink', target };
    }
    default:
      return { ...common, kind: 'other' };
  }
}

async function readBasicDir(
  meta: MetadataReader,
  bounds: TableBounds,
  cur: MetaCursor,
  common: InodeCommon,
): Promise<DirInode> {
  const b = await meta.read(cur, 16, bounds);
  const fileSize = b.readUInt16LE(8);
  return dirInode(common, b.readUInt32LE(0), b.readUInt16LE(10), fileSize, b.readUInt32LE(12));
}

async function readExtendedDir(
  meta: MetadataReader,
  bounds: TableBounds,
  cur: MetaCursor,
  common: InodeCommon,
): Promise<DirInode> {
  // nlink, file_size, block_index, parent, index_count, block_offset, xattr; the index is not needed
  // because listings are scanned linearly.
  const b = await meta.read(cur, 24, bounds);
  return dirInode(common, b.readUInt32LE(8), b.readUInt16LE(18), b.readUInt32LE(4), b.readUInt32LE(12));
}

function dirInode(
  common: InodeCommon,
  block: number,
  offset: number,
  fileSize: number,
  parent: number,
): DirInode {
  if (fileSize < 3) throw corrupt(`directory size ${fileSize} below the minimum of 3`);
  if (fileSize > MAX_DIRECTORY_SIZE) throw corrupt(`directory listing of ${fileSize} bytes`);
  if (offset >= 8192) throw corrupt(`directory offset ${offset} beyond a metadata block`);
  return {
    ...common,
    kind: 'dir',
    listing: { block, offset },
    listingSize: fileSize - 3,
    parentInode: parent,
  };
}

async function readFile(
  meta: MetadataReader,
  sb: Superblock,
  bounds: TableBounds,
  cur: MetaCursor,
  common: InodeCommon,
  extended: boolean,
): Promise<FileInode> {
  let blocksStart: number;
  let size: number;
  let fragment: number;
  let fragmentOffset: number;
  if (extended) {
    const b = await meta.read(cur, 40, bounds);
    const start = b.readBigUInt64LE(0);
    const big = b.readBigUInt64LE(8);
    if (start >= BigInt(sb.bytesUsed) || big > BigInt(Number.MAX_SAFE_INTEGER))
      throw corrupt('file extents out of range');
    blocksStart = Number(start);
    size = Number(big);
    fragment = b.readUInt32LE(28);
    fragmentOffset = b.readUInt32LE(32);
  } else {
    const b = await meta.read(cur, 16, bounds);
    blocksStart = b.readUInt32LE(0);
    fragment = b.readUInt32LE(4);
    fragmentOffset = b.readUInt32LE(8);
    size = b.readUInt32LE(12);
  }
  if (size > sb.bytesUsed * MAX_EXPANSION + sb.blockSize) {
    throw corrupt(`file size ${size} is implausible for a ${sb.bytesUsed}-byte image`);
  }
  if (blocksStart > sb.bytesUsed) throw corrupt(`file data start ${blocksStart} beyond the image`);
  const hasFragment = fragment !== NO_FRAGMENT;
  if (hasFragment && fragment >= sb.fragmentCount)
    throw corrupt(`fragment index ${fragment} >= ${sb.fragmentCount}`);
  if (hasFragment && fragmentOffset >= sb.blockSize) throw corrupt(`fragment offset ${fragmentOffset}`);
  const blockCount = hasFragment ? Math.floor(size / sb.blockSize) : Math.ceil(size / sb.blockSize);
  return {
    ...common,
    kind: 'file',
    blocksStart,
    size,
    fragment: hasFragment ? fragment : undefined,
    fragmentOffset,
    blockCount,
    blockList: { ...cur },
  };
}
