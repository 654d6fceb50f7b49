import { KeeperError } from '../../core/errors.js';
import { corrupt } from './errors.js';

export const SQUASHFS_MAGIC = 0x73717368; // "hsqs" read little-endian
export const SUPERBLOCK_SIZE = 96;
export const METADATA_BLOCK_SIZE = 8192;

/** Compressor ids stored in the superblock. */
export const CompressorId = { gzip: 1, lzma: 2, lzo: 3, xz: 4, lz4: 5, zstd: 6 } as const;

/** Superblock flag bits that change how the image is read. */
export const SuperFlag = {
  uncompressedInodes: 0x0001,
  uncompressedData: 0x0002,
  uncompressedFragments: 0x0008,
  noFragments: 0x0010,
  alwaysFragments: 0x0020,
  exportable: 0x0080,
  compressorOptions: 0x0400,
} as const;

/** A position in a metadata table: the block's offset from the table start and an offset inside it. */
export interface MetaRef {
  block: number;
  offset: number;
}

/** The fields of a SquashFS 4.0 superblock, with table offsets relative to the image start. */
export interface Superblock {
  inodeCount: number;
  modificationTime: number;
  blockSize: number;
  fragmentCount: number;
  compressor: number;
  flags: number;
  idCount: number;
  rootInode: MetaRef;
  bytesUsed: number;
  idTableStart: number;
  inodeTableStart: number;
  directoryTableStart: number;
  /** Undefined when the image has no fragment table. */
  fragmentTableStart: number | undefined;
}

const ABSENT = 0xffffffffffffffffn;

/** Splits a 48+16-bit inode reference into block and offset. */
export function splitRef(ref: bigint): MetaRef {
  const block = ref >> 16n;
  if (block > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('inode reference out of range');
  return { block: Number(block), offset: Number(ref & 0xffffn) };
}

/** `bytes_used` of a superblock whose magic was checked: the image's length from its first byte. */
export function squashfsBytesUsed(buf: Buffer): number {
  // Beyond 2^53 no file could hold it; saturate so the caller's comparison still fails.
  const v = buf.readBigUInt64LE(40);
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(v);
}

/** Parses and validates the 96-byte superblock against the bytes actually available. */
export function parseSuperblock(buf: Buffer, available: number): Superblock {
  if (buf.length < SUPERBLOCK_SIZE) throw corrupt(`superblock truncated (${buf.length} bytes)`);
  if (buf.readUInt32LE(0) !== SQUASHFS_MAGIC) {
    throw new KeeperError(
      'SQUASHFS_NOT_FOUND',
      'no SquashFS superblock (magic "hsqs") at the payload offset',
      {
        hint: 'the file may be a type-1 AppImage or use a non-standard runtime',
      },
    );
  }
  const major = buf.readUInt16LE(28);
  const minor = buf.readUInt16LE(30);
  if (major !== 4 || minor !== 0) {
    throw new KeeperError(
      'SQUASHFS_UNSUPPORTED_VERSION',
      `SquashFS ${major}.${minor} is not supported (only 4.0)`,
    );
  }
  const u64 = (off: number, name: string, optional = false): number | undefined => {
    const v = buf.readBigUInt64LE(off);
    if (optional && v === ABSENT) return undefined;
    if (v >= BigInt(available)) throw corrupt(`${name} (${v}) lies beyond the image (${available} bytes)`);
    return Number(v);
  };

  const blockSize = buf.readUInt32LE(12);
  const blockLog = buf.readUInt16LE(22);
  if (blockSize < 4096 || blockSize > 1 << 20 || 1 << blockLog !== blockSize) {
    throw corrupt(`invalid block size ${blockSize} (log ${blockLog})`);
  }
  const bytesUsedRaw = buf.readBigUInt64LE(40);
  if (bytesUsedRaw > BigInt(available)) {
    throw corrupt(`image truncated: superblock says ${bytesUsedRaw} bytes, only ${available} present`);
  }
  const bytesUsed = Number(bytesUsedRaw);
  const sb: Superblock = {
    inodeCount: buf.readUInt32LE(4),
    modificationTime: buf.readUInt32LE(8),
    blockSize,
    fragmentCount: buf.readUInt32LE(16),
    compressor: buf.readUInt16LE(20),
    flags: buf.readUInt16LE(24),
    idCount: buf.readUInt16LE(26),
    rootInode: splitRef(buf.readBigUInt64LE(32)),
    bytesUsed,
    idTableStart: u64(48, 'id table', false) ?? 0,
    inodeTableStart: u64(64, 'inode table', false) ?? 0,
    directoryTableStart: u64(72, 'directory table', false) ?? 0,
    fragmentTableStart: u64(80, 'fragment table', true),
  };
  if (sb.inodeCount === 0) throw corrupt('zero inodes');
  if (sb.idCount === 0) throw corrupt('empty id table');
  if (sb.inodeTableStart < SUPERBLOCK_SIZE || sb.inodeTableStart >= sb.directoryTableStart) {
    throw corrupt('inode table is not before the directory table');
  }
  if (sb.directoryTableStart >= bytesUsed) throw corrupt('directory table beyond the end of the image');
  if (sb.fragmentCount > 0 && sb.fragmentTableStart === undefined)
    throw corrupt('fragments without a fragment table');
  // Each fragment entry takes 16 bytes of metadata; more entries than the image could hold is a lie.
  if (sb.fragmentCount > bytesUsed / 2) throw corrupt(`absurd fragment count ${sb.fragmentCount}`);
  if (
    sb.rootInode.block >= sb.directoryTableStart - sb.inodeTableStart ||
    sb.rootInode.offset >= METADATA_BLOCK_SIZE
  ) {
    throw corrupt('root inode reference outside the inode table');
  }
  return sb;
}
