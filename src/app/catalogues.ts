/**
 * The configured catalogues, loaded for this run (from the cache, or revalidated), and the notes
 * the command should show (stale copies, unreachable catalogues, malformed entries).
 */
import type { Context } from '../context/context.js';
import { KeeperError } from '../core/errors.js';
import type { GlobalSettings } from '../config/types.js';
import { loadCatalogue, type LoadOptions, type LoadedCatalogue } from '../sources/catalogues/cache.js';
import { configuredCatalogues } from '../sources/catalogues/registry.js';

/** Every configured catalogue, in config order; CATALOGUE_UNAVAILABLE when none could be read. */
export async function loadCatalogues(
  ctx: Context,
  global: Pick<GlobalSettings, 'catalogues'>,
  opts: LoadOptions = {},
): Promise<LoadedCatalogue[]> {
  const refs = configuredCatalogues(global.catalogues, ctx.arch);
  const loaded = await Promise.all(refs.map((ref) => loadCatalogue(ctx, ref, opts)));
  if (!opts.cacheOnly && refs.length > 0 && loaded.every((c) => c.via === 'missing'))
    throw new KeeperError('CATALOGUE_UNAVAILABLE', 'no catalogue could be read, and none is cached', {
      hint: `${loaded.flatMap((c) => c.notes).join('; ')}; check the network or the catalogues field of config.yml`,
    });
  return loaded;
}
