// The readers fed a body in chunks, as revalidate.ts does (issue 27 §4): the same entries whatever
// the chunking, one huge item or line never kept whole, and what lies outside the items still JSON.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { amReader, MAX_LINE_BYTES } from '../../../src/sources/catalogues/am.js';
import { appImageHubReader } from '../../../src/sources/catalogues/appimagehub.js';
import { MAX_ITEM_BYTES } from '../../../src/sources/catalogues/json-catalogue.js';
import { keeperReader } from '../../../src/sources/catalogues/keeper.js';
import { toKeeperError } from '../../../src/core/errors.js';
import {
  MAX_CATALOGUE_ENTRIES,
  type CatalogueReader,
  type ParsedCatalogue,
} from '../../../src/sources/catalogues/types.js';

// `text` fed `size` bytes at a time (splitting lines, strings and UTF-8 sequences anywhere).
function chunked(
  reader: CatalogueReader,
  text: string,
  size: number,
  url = 'https://h/programs/x86_64-apps',
): ParsedCatalogue {
  const parser = reader.open(url);
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size));
  return parser.end();
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return toKeeperError(err).code;
  }
  return 'accepted';
}

const feed = JSON.stringify({
  version: 1,
  title: 'Ünïcode — feed',
  items: [
    {
      name: 'Tool',
      description: '<p>A fine tool — “quoted” \\"x\\" ]}[{ ,</p>',
      links: [{ type: 'GitHub', url: 'o/tool' }],
    },
    { name: '', description: 'no name' },
    {
      name: 'Émoji 🎉',
      description: 'p',
      links: [{ type: 'Download', url: 'https://example.org/e.AppImage' }],
    },
  ],
  expired: false,
});

void describe('streamed readers', () => {
  void test('every chunking gives the entries of the whole text', () => {
    const whole = appImageHubReader.parse(feed, 'u');
    assert.equal(whole.entries.length, 2);
    assert.equal(whole.skipped, 1);
    for (const size of [1, 2, 3, 7, 64])
      assert.deepEqual(chunked(appImageHubReader, feed, size), whole, `${size}`);
    const list =
      '◆ tool : A tool — “quoted”\r\n◆ émoji : no\n\n◆ good : Good one.\n◆ last : no newline at the end';
    const am = amReader.parse(list, 'https://h/programs/x86_64-apps');
    assert.deepEqual(
      am.entries.map((e) => e.name),
      ['good', 'last'],
    );
    assert.equal(am.skipped, 2);
    for (const size of [1, 2, 3, 5]) assert.deepEqual(chunked(amReader, list, size), am, `${size}`);
  });

  void test('a keeper item holding a huge string is left out unread, and nothing of it is kept', () => {
    const huge = 'a'.repeat(MAX_ITEM_BYTES + 10);
    const index = JSON.stringify({
      apps: [
        { name: 'small', description: 'kept', repository: 'org/small' },
        {
          name: 'huge',
          description: 'big',
          recipe: { strategy: { strategy: 'direct', url: `https://x/${huge}` } },
        },
      ],
    });
    const r = chunked(keeperReader, index, 65536, 'https://h/index.json');
    assert.deepEqual(
      r.entries.map((e) => e.name),
      ['small'],
    );
    assert.equal(r.skipped, 1);
  });

  void test('one huge AM line gives its entry from its first MAX_LINE_BYTES, the description cut as before', () => {
    const list = `◆ editor : An editor\n◆ huge : ${'word '.repeat(MAX_LINE_BYTES)}\n`;
    const r = chunked(amReader, list, 4096);
    assert.deepEqual(
      r.entries.map((e) => [e.name, e.description.length]),
      [
        ['editor', 'An editor'.length],
        ['huge', 400],
      ],
    );
  });

  void test('past MAX_CATALOGUE_ENTRIES items, the rest count as left out, as AM lines do', () => {
    const items = Array.from({ length: MAX_CATALOGUE_ENTRIES + 2 }, (_, i) => ({
      name: `app${i}`,
      description: 'x',
    }));
    const r = appImageHubReader.parse(JSON.stringify({ items }), 'u');
    assert.equal(r.entries.length, MAX_CATALOGUE_ENTRIES);
    assert.equal(r.skipped, 2);
  });

  void test('what is not JSON as a whole is refused, inside the items or around them', () => {
    const bad = [
      '{"items": [{"name": "a"},]}',
      '{"items": [,{"name": "a"}]}',
      '{"items": [{"name": "a"} {"name": "b"}]}',
      '{"items": [{"name": "a"}], "version": 1x}',
      '{"items": [{"name": "a"}]} trailing',
      '{"items": [{"name": "a"}',
      '{"items": [], "items": [{"name": "a"}]}',
      '[{"items": []}]',
      '{"version": 1}',
      `{"items": [], "pad": "${'p'.repeat(70 * 1024)}"}`,
      `{"items": [${'['.repeat(20)}${']'.repeat(20)}]}`,
    ];
    for (const text of bad)
      assert.equal(
        refusal(() => chunked(appImageHubReader, text, 5)),
        'CATALOGUE_INVALID',
        text.slice(0, 60),
      );
    // A key spelt with escapes is still the key: the array is read from what lies around it.
    const escaped = chunked(appImageHubReader, '{"\\u0069tems": [{"name": "a"}]}', 3);
    assert.deepEqual(
      escaped.entries.map((e) => e.name),
      ['a'],
    );
  });
});
