import type { FileHandle } from 'node:fs/promises';
import { fetchRuns } from '../ranges/fetch-runs.js';
import { fixedLayout } from '../ranges/runs.js';
import type { BlockHasher } from './block-hasher.js';
import type { BlockMatcher } from './block-matcher.js';
import { BlockReceiver } from './block-receiver.js';
import type { ZsyncControl } from './control-file.js';
import type { HttpSession } from './http.js';

/** Everything needed to fetch the blocks the seed did not provide. */
export interface RangeFetchOptions {
  session: HttpSession;
  /** The target file's URL (from the control file). */
  url: string;
  control: ZsyncControl;
  matcher: BlockMatcher;
  hasher: BlockHasher;
  out: FileHandle;
  maxRangesPerRequest: number;
  onProgress?: ((fetched: number, total: number) => void) | undefined;
}

/**
 * Fetches every block still unknown through the shared multi-range fetcher, each block verified
 * against its MD4 before it is written. Returns the URL that served the ranges (after redirects).
 */
export async function fetchMissingBlocks(opts: RangeFetchOptions): Promise<string> {
  const { control, matcher } = opts;
  return fetchRuns({
    session: opts.session,
    url: opts.url,
    layout: fixedLayout(control.blockSize, control.length),
    known: matcher.known,
    maxRangesPerRequest: opts.maxRangesPerRequest,
    sinkFor: (url) => new BlockReceiver(control, opts.hasher, matcher, opts.out, url),
    onProgress: opts.onProgress,
  });
}
