import { KeeperError, type KeeperErrorOptions } from '../../core/errors.js';

/** Builds the `BLOCKMAP_<WHAT>` error family every block map delta failure is reported with. */
export function blockmapError(what: string, message: string, options: KeeperErrorOptions = {}): KeeperError {
  return new KeeperError(`BLOCKMAP_${what}`, message, {
    hint: 'the update falls back to a full download',
    ...options,
  });
}

/**
 * The shared range fetcher reports in the zsync family; within a block map update the same
 * failures carry the block map's prefix, so warnings and `--json` name the method that failed.
 */
export function blockmapCode(code: string): string {
  return code.startsWith('ZSYNC_') ? `BLOCKMAP_${code.slice('ZSYNC_'.length)}` : code;
}
