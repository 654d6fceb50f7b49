/**
 * What the three forge sources share: the recipe fields they honour (inner ZIP glob, followed
 * tag), the limiter key (the repository), and the release turned into a Resolution.
 */
import type { ForgeStrategy } from '../../config/types.js';
import type { ForgeBinding, SourceBinding, SourceCaps } from '../source.js';
import type { ResolveDeps } from '../types.js';
import type { ReleaseFetch } from './release-fetch.js';
import { releaseToResolution } from './release.js';

/** A forge's assets belong to releases; its version is the tag. */
export const FORGE_CAPS: SourceCaps = { versionFromFile: false, releaseAssets: true };

/** What routing hands a forge source: its share of the repository URL, and the recipe's strategy. */
export interface ForgeTarget<R> {
  route: R;
  strategy: ForgeStrategy;
}

/** Binds a forge to one app from how it fetches the release; `extra` adds what only that forge offers. */
export function forgeBinding(
  strategy: ForgeStrategy,
  fetchRelease: (deps: ResolveDeps) => Promise<ReleaseFetch>,
  fetchArchived: (deps: ResolveDeps) => Promise<boolean | undefined>,
  extra: Pick<SourceBinding, 'hubApiBase' | 'attestations'> = {},
): ForgeBinding {
  return {
    ...extra,
    fetchArchived,
    limiterKey: strategy.repository,
    innerAssetMatch: strategy.inner_asset_match,
    followedTag: strategy.tag,
    fetchRelease,
    resolve: async (deps) => {
      const fetched = await fetchRelease(deps);
      if (fetched.kind === 'rate_limited') {
        return {
          kind: 'rate_limited',
          retryAt: fetched.retryAt,
          host: fetched.host,
          message: fetched.message,
        };
      }
      return {
        kind: 'resolved',
        resolution: releaseToResolution(fetched.release, strategy, deps.ctx.arch),
        requests: fetched.requests,
        notModified: fetched.notModified,
      };
    },
  };
}
