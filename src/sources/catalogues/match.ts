/**
 * Which catalogue entries an AppImage found on disk may be, from what it says of itself: its
 * desktop entry's Name, AppStream id, StartupWMClass and the file name's prefix. For `adopt`'s
 * finder list: a confident match names the app exactly; a weak one only resembles it.
 */
import type { CatalogueEntry } from './types.js';

/** What an AppImage tells about itself. */
export interface IdentityHints {
  desktopName?: string | undefined;
  appstreamId?: string | undefined;
  wmClass?: string | undefined;
  filePrefix?: string | undefined;
}

/** One entry that may be the app, with the hint that matched. */
export interface CatalogueMatch<E extends CatalogueEntry = CatalogueEntry> {
  entry: E;
  by: 'desktop Name' | 'AppStream id' | 'StartupWMClass' | 'file name';
  confidence: 'confident' | 'weak';
}

// Names compared without case, spaces, dashes and underscores: "Visual Studio Code" ~ visual-studio-code.
function fold(s: string): string {
  return s.toLowerCase().replace(/[\s_.-]+/g, '');
}

// `md.obsidian.Obsidian` → obsidian; reverse-DNS ids end with the app's name.
function appstreamTail(id: string): string {
  const parts = id.replace(/\.desktop$/, '').split('.');
  return parts[parts.length - 1] ?? id;
}

/**
 * Entries matching `hints`, confident ones first: an exact (folded) name match by desktop Name,
 * AppStream id or StartupWMClass is confident; by file prefix alone, or a name that only starts
 * with the hint, weak.
 */
export function matchCatalogues<E extends CatalogueEntry>(
  hints: IdentityHints,
  entries: readonly E[],
): CatalogueMatch<E>[] {
  const strong: [CatalogueMatch['by'], string | undefined][] = [
    ['desktop Name', hints.desktopName],
    ['AppStream id', hints.appstreamId ? appstreamTail(hints.appstreamId) : undefined],
    ['StartupWMClass', hints.wmClass],
  ];
  const out: CatalogueMatch<E>[] = [];
  const seen = new Set<E>();
  const add = (entry: E, by: CatalogueMatch['by'], confidence: CatalogueMatch['confidence']): void => {
    if (seen.has(entry)) return;
    seen.add(entry);
    out.push({ entry, by, confidence });
  };
  const folded = entries.map((e) => [e, fold(e.name)] as const);
  for (const [by, hint] of strong) {
    const h = hint ? fold(hint) : '';
    if (h.length < 2) continue;
    for (const [e, n] of folded) if (n === h) add(e, by, 'confident');
  }
  const prefix = hints.filePrefix ? fold(hints.filePrefix) : '';
  if (prefix.length >= 3) for (const [e, n] of folded) if (n === prefix) add(e, 'file name', 'weak');
  for (const [by, hint] of [...strong, ['file name', hints.filePrefix] as const]) {
    const h = hint ? fold(hint) : '';
    if (h.length < 3) continue;
    for (const [e, n] of folded)
      if (n !== h && (n.startsWith(h) || h.startsWith(n)) && n.length >= 3) add(e, by, 'weak');
  }
  return out;
}
