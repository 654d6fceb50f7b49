/**
 * The app name `add` gives a recipe: the chosen asset's prefix (`Obsidian-1.7.7.AppImage` →
 * `obsidian`), without its version, architecture, platform words and extension; the repository's
 * name only when the asset leaves nothing usable.
 */
import { slugAppName } from '../adopt/plan.js';
import { archTokens } from '../../sources/forge/arch.js';
import { versionSpan } from './asset-pattern.js';

// Words that say where the file runs, not what it is: dropped from the end of the prefix.
const PLATFORM_WORD = /[-_.\s]+(?:linux|gnu|ubuntu|fedora|debian|appimage|x86|v|\d+(?:\.\d+)*)$/i;

/** The app name the asset suggests, or undefined when it suggests none. */
export function nameFromAsset(
  assetName: string,
  tag: string,
  hints: readonly string[] = [],
): string | undefined {
  let stem = assetName.replace(/[-_.\s]?(?:appimage|zip)$/i, '');
  const v = versionSpan(stem, tag, hints);
  if (v) stem = stem.slice(0, v.start);
  for (const t of archTokens(stem).reverse()) stem = stem.slice(0, t.start) + stem.slice(t.end);
  let before: string;
  do {
    before = stem;
    stem = stem.replace(PLATFORM_WORD, '').replace(/[-_.\s]+$/, '');
  } while (stem !== before && stem !== '');
  if (!/[a-z]/i.test(stem)) return undefined;
  return slugAppName(stem.replace(/[_\s]+/g, '-'));
}
