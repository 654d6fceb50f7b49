/**
 * AM's list (`programs/<arch>-apps` in ivan-hc/AM): lines `◆ name : description`. The upstream is
 * named only in each app's install script, `programs/<arch>/<name>` beside the list; see am-script.ts.
 */
import { KeeperError } from '../../core/errors.js';
import { oneLine } from './text-fields.js';
import {
  CATALOGUE_LABELS,
  MAX_CATALOGUE_ENTRIES,
  type CatalogueEntry,
  type CatalogueReader,
} from './types.js';

const LINE = /^\s*◆\s+([A-Za-z0-9][A-Za-z0-9_.+-]{0,99})\s+:\s?(.*)$/;

/** The script URL of `name` for the list at `listUrl` (`…/programs/x86_64-apps` → `…/programs/x86_64/name`). */
export function amScriptUrl(listUrl: string, name: string): string | undefined {
  const m = /^(.*\/)([A-Za-z0-9_]+)-apps(?:\.md)?$/.exec(listUrl.split(/[?#]/)[0] ?? '');
  return m ? `${m[1]}${m[2]}/${encodeURIComponent(name)}` : undefined;
}

/** The AM list reader. */
export const amReader: CatalogueReader = {
  format: 'am',
  label: CATALOGUE_LABELS.am,
  parse(text, url) {
    const entries: CatalogueEntry[] = [];
    let skipped = 0;
    let lines = 0;
    for (const line of text.split('\n')) {
      if (!line.includes('◆')) continue;
      lines++;
      const m = LINE.exec(line);
      const name = m?.[1];
      // Past the bound a line counts as left out, like a malformed one: the list is not trusted to be small.
      if (!name || entries.length >= MAX_CATALOGUE_ENTRIES) {
        skipped++;
        continue;
      }
      const description = oneLine(m[2]);
      entries.push({
        name,
        description,
        script: amScriptUrl(url, name),
        // AM says so itself of the builds it or its friends make.
        repackaged: /\bunofficial\b/i.test(description) || undefined,
      });
    }
    if (lines === 0)
      throw new KeeperError(
        'CATALOGUE_INVALID',
        `${url} is not an AM list (no "◆ name : description" lines)`,
      );
    return { entries, skipped };
  },
};
