/**
 * Our own index, for an organisation that publishes the recipes it approves:
 * `{"apps": [{"name", "description", "repository" or "url", "recipe": {...}}]}`.
 */
import * as z from 'zod';
import { defineReader } from './define-reader.js';
import { jsonCatalogueParser } from './json-catalogue.js';
import { isWebUrl, oneLine, ownerRepo } from './text-fields.js';
import type { CatalogueEntry } from './types.js';

const App = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$/),
  description: z.string().optional(),
  repository: z.string().max(2000).optional(),
  url: z.string().max(2000).optional(),
  homepage: z.string().optional(),
  license: z.string().optional(),
  repackaged: z.boolean().optional(),
  recipe: z.record(z.string(), z.unknown()).optional(),
});

function entryOf(app: z.infer<typeof App>): CatalogueEntry {
  const repo = app.repository;
  const repository =
    repo === undefined ? undefined : (ownerRepo(repo) ?? (isWebUrl(repo) ? repo : undefined));
  return {
    name: app.name,
    description: oneLine(app.description),
    repository,
    download: repository === undefined && isWebUrl(app.url) ? app.url : undefined,
    homepage: isWebUrl(app.homepage) ? app.homepage : undefined,
    license: oneLine(app.license) || undefined,
    repackaged: app.repackaged,
    recipe: app.recipe,
  };
}

/** The keeper index reader. */
export const keeperReader = defineReader('keeper', (url) =>
  jsonCatalogueParser(url, {
    key: 'apps',
    notThis: 'is not a keeper index (no apps[])',
    take(raw) {
      const app = App.safeParse(raw);
      return app.success ? entryOf(app.data) : undefined;
    },
  }),
);
