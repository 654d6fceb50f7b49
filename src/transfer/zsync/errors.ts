import { KeeperError, type KeeperErrorOptions } from '../../core/errors.js';

/** Builds the `ZSYNC_<WHAT>` error family every zsync failure is reported with. */
export function zsyncError(what: string, message: string, options: KeeperErrorOptions = {}): KeeperError {
  return new KeeperError(`ZSYNC_${what}`, message, {
    hint: 'the update falls back to a full download',
    ...options,
  });
}
