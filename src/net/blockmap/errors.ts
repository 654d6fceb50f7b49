import { KeeperError, type KeeperErrorOptions } from '../../core/errors.js';

/** Builds the `BLOCKMAP_<WHAT>` error family every block map delta failure is reported with. */
export function blockmapError(what: string, message: string, options: KeeperErrorOptions = {}): KeeperError {
  return new KeeperError(`BLOCKMAP_${what}`, message, {
    hint: 'the update falls back to a full download',
    ...options,
  });
}

/**
 * The error a failed block map update ends with: the shared range fetcher reports in the zsync
 * family, so those codes get the block map's prefix (warnings and `--json` name the method that
 * failed); and the bytes the attempt transferred travel in `details`, because the caller falls
 * back to a full download and reports both.
 */
export function blockmapFailure(err: unknown, spent: { bytesFetched: number; requests: number }): unknown {
  if (!(err instanceof KeeperError)) return err;
  const code = err.code.startsWith('ZSYNC_') ? `BLOCKMAP_${err.code.slice('ZSYNC_'.length)}` : err.code;
  return new KeeperError(code, err.message, {
    hint: err.hint,
    cause: err.cause,
    exitCode: err.exitCode,
    details: { ...err.details, bytesFetched: spent.bytesFetched, requests: spent.requests },
  });
}
