import { open } from 'node:fs/promises';
import { KeeperError } from '../core/errors.js';
import { SQUASHFS_MAGIC, SUPERBLOCK_SIZE, squashfsBytesUsed } from './squashfs/superblock.js';

// ISO 9660 primary volume descriptor (type-1 AppImages): sector 16, its size fields at fixed offsets.
const ISO_PVD_OFFSET = 0x8000;
const ISO_VOLUME_BLOCKS = 80;
const ISO_BLOCK_SIZE = 128;

/**
 * Verification stage VERIFY_TRUNCATED: the file system the AppImage carries must fit inside the
 * file. A type-2 image's SquashFS superblock records `bytes_used`; a type-1 image's ISO 9660
 * descriptor records its volume size. Without this, a download cut short whose size nobody
 * announced (script and direct strategies, lab links) would pass every other check.
 * A payload in another format (no SquashFS magic) is only required to start inside the file.
 */
export async function verifyPayloadFits(
  path: string,
  fileSize: number,
  appImageType: 1 | 2,
  payloadOffset: number,
): Promise<void> {
  const fh = await open(path, 'r');
  try {
    if (appImageType === 1) {
      const pvd = Buffer.alloc(ISO_BLOCK_SIZE + 2);
      const { bytesRead } = await fh.read(pvd, 0, pvd.length, ISO_PVD_OFFSET);
      if (bytesRead < pvd.length) throw truncated(fileSize, ISO_PVD_OFFSET + pvd.length, 'ISO 9660 image');
      // Only a primary volume descriptor (type 1, "CD001") states the volume size.
      if (pvd[0] !== 1 || pvd.toString('latin1', 1, 6) !== 'CD001') return;
      const needed = pvd.readUInt32LE(ISO_VOLUME_BLOCKS) * pvd.readUInt16LE(ISO_BLOCK_SIZE);
      if (needed > fileSize) throw truncated(fileSize, needed, 'ISO 9660 image');
      return;
    }
    if (payloadOffset >= fileSize) throw truncated(fileSize, payloadOffset + 1, 'payload');
    const sb = Buffer.alloc(SUPERBLOCK_SIZE);
    const { bytesRead } = await fh.read(sb, 0, sb.length, payloadOffset);
    if (bytesRead >= 4 && sb.readUInt32LE(0) !== SQUASHFS_MAGIC) return;
    if (bytesRead < SUPERBLOCK_SIZE) {
      throw truncated(fileSize, payloadOffset + SUPERBLOCK_SIZE, 'SquashFS superblock');
    }
    const needed = payloadOffset + squashfsBytesUsed(sb);
    if (needed > fileSize) throw truncated(fileSize, needed, 'SquashFS image');
  } finally {
    await fh.close();
  }
}

function truncated(actual: number, needed: number, what: string): KeeperError {
  return new KeeperError(
    'VERIFY_TRUNCATED',
    `the file is truncated: its ${what} needs ${needed} bytes, the file has ${actual}`,
    {
      hint: 'the download was cut short (the server announced no size to check); it was not installed',
      details: { expected: needed, actual },
    },
  );
}
