/**
 * AppImageHub's feed (https://appimage.github.io/feed.json): `items[]` with name, description,
 * license and `links[]` of type GitHub (`owner/repo`) or Download (a URL).
 */
import * as z from 'zod';
import { defineReader } from './define-reader.js';
import { jsonCatalogueParser } from './json-catalogue.js';
import { hubPageOf, hubRepoOfUrl, isWebUrl, oneLine, ownerRepo } from './text-fields.js';
import type { CatalogueEntry } from './types.js';

const Item = z.looseObject({
  name: z.string().min(1).max(200),
  description: z.string().nullish(),
  license: z.string().nullish(),
  links: z.array(z.looseObject({ type: z.string(), url: z.string() })).nullish(),
  authors: z.array(z.looseObject({ name: z.string().nullish(), url: z.string().nullish() })).nullish(),
});

// Descriptions are HTML: the first paragraph with tags dropped and its soft line breaks joined.
function firstParagraph(html: string): string {
  const paragraphs = html.slice(0, 16384).split(/<\/p>|\n\s*\n/i);
  const text = paragraphs
    .map((p) =>
      p
        .replace(/<[^>]*>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .find((p) => p !== '');
  return oneLine(text ?? '');
}

function entryOf(item: z.infer<typeof Item>): CatalogueEntry {
  let repository: string | undefined;
  let download: string | undefined;
  for (const link of item.links ?? []) {
    if (link.type === 'GitHub') repository ??= ownerRepo(link.url);
    else if (link.type === 'Download' && isWebUrl(link.url)) {
      // Most Download links are the GitHub releases page: that is the repository again.
      const repo = hubRepoOfUrl(link.url);
      if (repo) repository ??= repo;
      else download ??= link.url;
    }
  }
  const author = item.authors?.find((a) => isWebUrl(a.url))?.url ?? undefined;
  return {
    name: item.name.trim(),
    description: firstParagraph(item.description ?? ''),
    repository,
    download: repository ? undefined : download,
    homepage: repository ? hubPageOf(repository) : isWebUrl(author) ? author : undefined,
    license: oneLine(item.license) || undefined,
  };
}

/** The AppImageHub feed reader. */
export const appImageHubReader = defineReader('appimagehub', (url) =>
  jsonCatalogueParser(url, {
    key: 'items',
    notThis: 'is not an AppImageHub feed (no items[])',
    take(raw) {
      const item = Item.safeParse(raw);
      return item.success && item.data.name.trim() !== '' ? entryOf(item.data) : undefined;
    },
  }),
);
