/**
 * The catalogue entry a recipe came from, for `info`: `add NAME` writes
 * `# catalogue: LABEL URL entry NAME` above the recipe; the entry's description, homepage and
 * license are read from the cached catalogue only (info makes no request).
 */
import type { Context } from '../context/context.js';
import { readSmallFileSync } from '../core/small-file.js';
import { loadCatalogue } from '../sources/catalogues/cache.js';
import type { CatalogueFormat } from '../sources/catalogues/types.js';

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

const FORMAT_OF_LABEL: Record<string, CatalogueFormat> = {
  AppImageHub: 'appimagehub',
  AM: 'am',
  keeper: 'keeper',
};
const ORIGIN_LINE = /^# catalogue: (AppImageHub|AM|keeper) (https?:\/\/\S+) entry (\S.{0,99})$/m;

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
  const format = label ? FORMAT_OF_LABEL[label] : undefined;
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
