/**
 * AM's list (`programs/<arch>-apps` in ivan-hc/AM): lines `◆ name : description`. The upstream is
 * named only in each app's install script, `programs/<arch>/<name>` beside the list; see am-script.ts.
 * The list is read line by line as it arrives, each line up to its first MAX_LINE_BYTES.
 */
import { LineSplitter } from '../../core/byte-lines.js';
import { KeeperError } from '../../core/errors.js';
import { defineReader } from './define-reader.js';
import { oneLine, ownCopy } from './text-fields.js';
import { MAX_CATALOGUE_ENTRIES, type CatalogueEntry } from './types.js';

const LINE = /^\s*◆\s+([A-Za-z0-9][A-Za-z0-9_.+-]{0,99})\s+:\s?(.*)$/;
const DIAMOND = Buffer.from('◆');
/**
 * The most of one line read: a name, and a description far longer than the MAX_FIELD characters
 * kept of it. The rest of a longer line is dropped as it streams past.
 */
export const MAX_LINE_BYTES = 4 * 1024;

/** The script URL of `name` for the list at `listUrl` (`…/programs/x86_64-apps` → `…/programs/x86_64/name`). */
export function amScriptUrl(listUrl: string, name: string): string | undefined {
  const m = /^(.*\/)([A-Za-z0-9_]+)-apps(?:\.md)?$/.exec(listUrl.split(/[?#]/)[0] ?? '');
  return m ? `${m[1]}${m[2]}/${encodeURIComponent(name)}` : undefined;
}

/** The AM list reader. */
export const amReader = defineReader('am', (url) => {
  const entries: CatalogueEntry[] = [];
  let skipped = 0;
  let lines = 0;
  const lineOf = (bytes: Buffer): void => {
    if (!bytes.includes(DIAMOND)) return;
    lines++;
    const m = LINE.exec(bytes.toString('utf8'));
    const name = m?.[1];
    // Past the bound a line counts as left out, like a malformed one: the list is not trusted to be small.
    if (!name || entries.length >= MAX_CATALOGUE_ENTRIES) {
      skipped++;
      return;
    }
    const description = oneLine(m[2]);
    entries.push({
      name: ownCopy(name),
      description,
      script: amScriptUrl(url, name),
      // AM says so itself of the builds it or its friends make.
      repackaged: /\bunofficial\b/i.test(description) || undefined,
    });
  };
  const splitter = new LineSplitter(MAX_LINE_BYTES, lineOf);
  return {
    push: (chunk) => splitter.push(chunk),
    end() {
      splitter.end();
      if (lines === 0)
        throw new KeeperError(
          'CATALOGUE_INVALID',
          `${url} is not an AM list (no "◆ name : description" lines)`,
        );
      return { entries, skipped };
    },
  };
});
