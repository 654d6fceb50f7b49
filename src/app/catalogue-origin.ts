/**
 * The catalogue entry a recipe came from, for `info`: `add NAME` writes
 * `# catalogue: LABEL URL entry NAME` above the recipe; the entry's description, homepage and
 * license are read from the cached catalogue only (info makes no request).
 */
import { CATALOGUE_FORMATS, type CatalogueFormat } from '../config/catalogue-formats.js';
import type { Context } from '../context/context.js';
import { readSmallFileSync } from '../core/small-file.js';
import { loadCatalogue } from '../sources/catalogues/cache.js';

/** What `info` shows of a recipe's catalogue entry. */
export interface CatalogueOriginInfo {
  catalogue: string;
  url: string;
  entry: string;
  /** null when the catalogue is not cached (or no longer lists the entry). */
  description: string | null;
  homepage: string | null;
  license: string | null;
}

const FORMAT_OF_LABEL = new Map<string, CatalogueFormat>(
  Object.entries(CATALOGUE_FORMATS).map(([format, spec]) => [spec.label, format as CatalogueFormat]),
);
// Labels are single words of letters (catalogue-formats.ts); escaped all the same.
const LABELS = [...FORMAT_OF_LABEL.keys()].map((l) => l.replace(/[^A-Za-z0-9]/g, '\\$&')).join('|');
const ORIGIN_LINE = new RegExp(`^# catalogue: (${LABELS}) (https?:\\/\\/\\S+) entry (\\S.{0,99})$`, 'm');

/** The origin recorded in `recipeFile`, with the cached entry's details; undefined when none. */
export async function catalogueOrigin(
  ctx: Context,
  recipeFile: string,
): Promise<CatalogueOriginInfo | undefined> {
  let text: string;
  try {
    const file = readSmallFileSync(recipeFile, 64 * 1024, { head: true });
    if (file.kind !== 'text') return undefined;
    text = file.text;
  } catch {
    return undefined;
  }
  const m = ORIGIN_LINE.exec(text);
  const [label, url, entryName] = [m?.[1], m?.[2], m?.[3]?.trim()];
  const format = label ? FORMAT_OF_LABEL.get(label) : undefined;
  if (!label || !url || !entryName || !format) return undefined;
  const cached = await loadCatalogue(ctx, { url, format }, { cacheOnly: true });
  const entry = cached.entries.find((e) => e.name === entryName);
  return {
    catalogue: label,
    url,
    entry: entryName,
    description: entry?.description || null,
    homepage: entry?.homepage ?? null,
    license: entry?.license ?? null,
  };
}
