import { KeeperError } from '../../core/errors.js';

/** A SquashFS image whose structures are inconsistent or out of bounds (damaged or hostile). */
export function corrupt(message: string, details?: Record<string, unknown>): KeeperError {
  return new KeeperError('SQUASHFS_CORRUPT', `corrupt SquashFS image: ${message}`, {
    hint: 'the AppImage is damaged or was not built by a standard tool; download it again',
    ...(details ? { details } : {}),
  });
}
