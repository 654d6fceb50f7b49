/**
 * The JSON formats (AppImageHub's feed, the keeper index) read item by item as the body arrives:
 * each item of the top-level array is parsed alone and turned into an entry at once, so a feed
 * near the 32 MiB cap costs its entries, not a tree of millions of values. The rest of the document
 * is parsed at the end, so a body that is not JSON as a whole is still refused.
 */
import { parseJsonWithin } from '../../core/bounded-json.js';
import { KeeperError } from '../../core/errors.js';
import { JsonMemberSplitter } from '../../core/json-members.js';
import { MAX_CATALOGUE_ENTRIES, type CatalogueEntry, type CatalogueParser } from './types.js';

/** Longest item read; a longer one is left out unread (a real item is one or two KiB). */
export const MAX_ITEM_BYTES = 64 * 1024;
/** Most bytes of the document outside its array of items. */
const MAX_SKELETON_BYTES = 64 * 1024;
// The document as a whole may nest 16 levels; an item sits two levels down (object, array).
const DOCUMENT_DEPTH = 16;
const ITEM_LIMITS = { maxDepth: DOCUMENT_DEPTH - 2, maxValues: 2_000_000 };

/** How one JSON format reads. */
export interface JsonCatalogueFormat {
  /** The top-level key holding the items (`items`, `apps`). */
  key: string;
  /** The refusal's text after the URL: `is not an AppImageHub feed (no items[])`. */
  notThis: string;
  /** The entry of one parsed item, or undefined when it is left out. */
  take(item: unknown): CatalogueEntry | undefined;
}

/** A parser of one body of `format` fetched from `url`. */
export function jsonCatalogueParser(url: string, format: JsonCatalogueFormat): CatalogueParser {
  const entries: CatalogueEntry[] = [];
  let skipped = 0;
  let items = 0;
  const invalid = (): KeeperError => new KeeperError('CATALOGUE_INVALID', `${url} ${format.notThis}`);
  // Past the bound an item counts as left out, as an AM line does: a catalogue is not trusted to be small.
  const takeItem = (item: unknown): void => {
    const entry = ++items > MAX_CATALOGUE_ENTRIES ? undefined : format.take(item);
    if (entry) entries.push(entry);
    else skipped++;
  };
  const splitter = new JsonMemberSplitter({
    key: format.key,
    maxMemberBytes: MAX_ITEM_BYTES,
    maxSkeletonBytes: MAX_SKELETON_BYTES,
    onMember(text) {
      if (text === undefined) {
        items++;
        skipped++;
        return;
      }
      const parsed = parseJsonWithin(text, ITEM_LIMITS);
      if (!parsed.ok) throw invalid();
      takeItem(parsed.value);
    },
  });
  return {
    push: (chunk) => splitter.push(chunk),
    end() {
      const skeleton = splitter.end();
      const parsed = skeleton.ok
        ? parseJsonWithin(skeleton.text, { maxDepth: DOCUMENT_DEPTH, maxValues: 2_000_000 })
        : undefined;
      const top = parsed?.ok ? parsed.value : undefined;
      if (typeof top !== 'object' || top === null || Array.isArray(top)) throw invalid();
      const list = (top as Record<string, unknown>)[format.key];
      if (!Array.isArray(list)) throw invalid();
      // The streamed array was left empty; a non-empty one is a second array (or a key spelt with
      // escapes, which the splitter does not read): read it only when it is the only one.
      if (skeleton.ok && skeleton.found) {
        if (list.length > 0) throw invalid();
      } else for (const item of list) takeItem(item);
      return { entries, skipped };
    },
  };
}
