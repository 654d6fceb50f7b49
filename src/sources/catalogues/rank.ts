/**
 * Search ranking: every term must appear in the name or the description; an entry ranks by its
 * weakest term (exact name, name prefix, a word of the name, anywhere in the name, description).
 */
import type { CatalogueEntry } from './types.js';

// Lower is better; undefined = no match. A name's words are split only when the term is in it
// (a search ranks thousands of entries, and a new process runs this code before it is optimised).
function termRank(name: string, entry: CatalogueEntry, term: string, lower: Lowered): number | undefined {
  if (name === term) return 0;
  if (name.startsWith(term)) return 1;
  if (name.includes(term)) {
    lower.words ??= name.split(/[^a-z0-9]+/);
    return lower.words.includes(term) ? 2 : 3;
  }
  lower.description ??= entry.description.toLowerCase();
  return lower.description.includes(term) ? 4 : undefined;
}

interface Lowered {
  words?: string[];
  description?: string;
}

/** The rank of `entry` for `terms` (lower case), or undefined when a term is missing. */
export function entryRank(entry: CatalogueEntry, terms: readonly string[]): number | undefined {
  const name = entry.name.toLowerCase();
  const lower: Lowered = {};
  let worst = 0;
  for (const t of terms) {
    const r = termRank(name, entry, t, lower);
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
