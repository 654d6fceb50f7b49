/**
 * Search ranking: every term must appear in the name or the description; an entry ranks by its
 * weakest term (exact name, name prefix, a word of the name, anywhere in the name, description).
 */
import type { CatalogueEntry } from './types.js';

/** Lower is better; undefined = no match. */
function termRank(
  name: string,
  words: readonly string[],
  description: string,
  term: string,
): number | undefined {
  if (name === term) return 0;
  if (name.startsWith(term)) return 1;
  if (words.includes(term)) return 2;
  if (name.includes(term)) return 3;
  if (description.includes(term)) return 4;
  return undefined;
}

/** The rank of `entry` for `terms` (lower case), or undefined when a term is missing. */
export function entryRank(entry: CatalogueEntry, terms: readonly string[]): number | undefined {
  const name = entry.name.toLowerCase();
  const words = name.split(/[^a-z0-9]+/).filter(Boolean);
  const description = entry.description.toLowerCase();
  let worst = 0;
  for (const t of terms) {
    const r = termRank(name, words, description, t);
    if (r === undefined) return undefined;
    worst = Math.max(worst, r);
  }
  return worst;
}

/** Splits what the user typed into lower-case terms. */
export function searchTerms(input: readonly string[]): string[] {
  return input
    .flatMap((t) => t.toLowerCase().split(/\s+/))
    .filter(Boolean)
    .slice(0, 16);
}
