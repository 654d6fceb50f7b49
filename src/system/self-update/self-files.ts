/** What self-update writes beside the executable: its temp-file prefix and the writability check. */
import { access, constants } from 'node:fs/promises';
import { KeeperError } from '../../core/errors.js';

/** Prefix of self-update's temp files (download, `.previous` snapshot) in the executable's folder. */
export const SELF_TEMP_PREFIX = '.appimage-keeper-self-';

/** SELF_UPDATE_NOT_WRITABLE unless this user may create and rename files in `dir`. */
export async function requireWritableDir(dir: string, target: string): Promise<void> {
  try {
    await access(dir, constants.W_OK);
  } catch (err) {
    throw new KeeperError('SELF_UPDATE_NOT_WRITABLE', `cannot write to ${dir}, where ${target} lives`, {
      cause: err,
      hint: 'run self-update as the user who owns that folder, or download the new executable by hand',
    });
  }
}
