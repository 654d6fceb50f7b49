import { statfs } from 'node:fs/promises';
import { KeeperError } from './errors.js';

// Room left on top of the file itself, so a download never fills the disk to the last block.
const HEADROOM_BYTES = 16 * 1024 * 1024;

/**
 * Throws NO_SPACE when the file system holding `dir` has less than `bytes` (plus a little headroom)
 * available to this user. A file system that cannot report its space is not refused.
 */
export async function ensureFreeSpace(dir: string, bytes: number, what: string): Promise<void> {
  const fs = await statfs(dir).catch(() => undefined);
  if (!fs) return;
  const available = fs.bavail * fs.bsize;
  if (available >= bytes + HEADROOM_BYTES) return;
  throw new KeeperError(
    'NO_SPACE',
    `not enough free space in ${dir} for ${what}: needs ${bytes} bytes (+${HEADROOM_BYTES} headroom), ${available} available`,
    {
      hint: 'free some space there (or point storage_dir elsewhere); nothing was changed',
      details: { needed: bytes, available },
    },
  );
}
