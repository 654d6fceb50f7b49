/**
 * Our own index, for an organisation that publishes the recipes it approves:
 * `{"apps": [{"name", "description", "repository" or "url", "recipe": {...}}]}`.
 */
import * as z from 'zod';
import { KeeperError } from '../../core/errors.js';
import { parseJsonWithin } from '../../core/bounded-json.js';
import { isWebUrl, oneLine, ownerRepo } from './text-fields.js';
import {
  CATALOGUE_LABELS,
  MAX_CATALOGUE_ENTRIES,
  type CatalogueEntry,
  type CatalogueReader,
} from './types.js';

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
const Index = z.looseObject({ apps: z.array(z.unknown()).max(MAX_CATALOGUE_ENTRIES) });

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
export const keeperReader: CatalogueReader = {
  format: 'keeper',
  label: CATALOGUE_LABELS.keeper,
  parse(text, url) {
    const parsed = parseJsonWithin(text, { maxDepth: 16, maxValues: 2_000_000 });
    const index = parsed.ok ? Index.safeParse(parsed.value) : undefined;
    if (!index?.success)
      throw new KeeperError('CATALOGUE_INVALID', `${url} is not a keeper index (no apps[])`);
    const entries: CatalogueEntry[] = [];
    let skipped = 0;
    for (const raw of index.data.apps) {
      const app = App.safeParse(raw);
      if (app.success) entries.push(entryOf(app.data));
      else skipped++;
    }
    return { entries, skipped };
  },
};
