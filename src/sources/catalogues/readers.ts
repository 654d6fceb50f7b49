/**
 * One reader per catalogue format, looked up by name. Kept apart from registry.ts: the readers
 * hold the zod schemas, needed only when a fetched body is parsed, never on a cache hit.
 */
import { amReader } from './am.js';
import { appImageHubReader } from './appimagehub.js';
import { keeperReader } from './keeper.js';
import type { CatalogueFormat, CatalogueReader } from './types.js';

const READERS: Record<CatalogueFormat, CatalogueReader> = {
  appimagehub: appImageHubReader,
  am: amReader,
  keeper: keeperReader,
};

/** The reader of `format`. */
export function readerFor(format: CatalogueFormat): CatalogueReader {
  return READERS[format];
}
