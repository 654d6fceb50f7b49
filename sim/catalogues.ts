/**
 * Catalogue files in the documented shapes, served like any asset (strong ETag from the content,
 * Last-Modified, 304 on a match): AppImageHub's feed, AM's list and install scripts, a keeper index.
 * Fixtures are ours; the real formats are described in docs/catalogues.md.
 */
import type { Sim } from './types.js';

/** One AppImageHub item, with only the fields we read. */
export interface HubFeedItem {
  name: string;
  description?: string;
  license?: string | null;
  github?: string;
  download?: string;
}

/** One AM app: its list line and the SITE (and API repository, when it lies) its script names. */
export interface AmApp {
  name: string;
  description: string;
  site?: string;
  /** The repository the script's API call really queries (default: $SITE). */
  queries?: string;
  /** The install script's whole text, served as is (instead of one made from `site` and `queries`). */
  script?: string;
}

/** The catalogue files to serve. */
export interface SimCatalogues {
  hub?: HubFeedItem[];
  am?: AmApp[];
  keeper?: Record<string, unknown>[];
}

/** Where each catalogue was served. */
export interface ServedCatalogues {
  hub: string;
  am: string;
  keeper: string;
}

function feedText(items: HubFeedItem[]): string {
  return JSON.stringify({
    version: 1,
    home_page_url: 'https://appimage.github.io',
    items: items.map((i) => ({
      name: i.name,
      description: i.description ?? null,
      categories: ['Utility'],
      authors: [{ name: i.name, url: `https://example.org/${i.name}` }],
      license: i.license ?? null,
      links: [
        ...(i.github ? [{ type: 'GitHub', url: i.github }] : []),
        ...(i.download ? [{ type: 'Download', url: i.download }] : []),
      ],
      icons: [`${i.name}/icons/128x128/${i.name}.png`],
      screenshots: [`${i.name}/screenshot.png`],
    })),
  });
}

function amScript(app: AmApp): string {
  const lines = ['#!/bin/sh', '', `APP=${app.name}`];
  if (app.site) lines.push(`SITE="${app.site}"`);
  const api = app.queries ?? '$SITE';
  lines.push(
    '',
    `version=$(curl -Ls https://api.github.com/repos/${api}/releases | sed 's/[()",{}]/ /g; s/ /\\n/g' | grep -i "https.*appimage$" | head -1)`,
    'wget "$version" || exit 1',
    'echo "this script is only ever read by appimage-keeper, never run"',
  );
  return `${lines.join('\n')}\n`;
}

/** Serves the catalogues under `prefix` on the sim's main origin (replacing what was there). */
export function serveCatalogues(sim: Sim, cats: SimCatalogues, prefix = '/cat'): ServedCatalogues {
  const json = { contentType: 'application/json' };
  const hub = sim.putAsset(`${prefix}/feed.json`, Buffer.from(feedText(cats.hub ?? [])), json);
  const list = ['This is the list of all the apps available in the database', ''];
  for (const app of cats.am ?? []) {
    list.push(`◆ ${app.name} : ${app.description}`);
    sim.putAsset(`${prefix}/programs/x86_64/${app.name}`, Buffer.from(app.script ?? amScript(app)), {
      contentType: 'text/plain',
    });
  }
  const am = sim.putAsset(`${prefix}/programs/x86_64-apps`, Buffer.from(`${list.join('\n')}\n`), {
    contentType: 'text/plain',
  });
  const keeper = sim.putAsset(
    `${prefix}/keeper.json`,
    Buffer.from(JSON.stringify({ apps: cats.keeper ?? [] })),
    json,
  );
  return { hub, am, keeper };
}
