// rankEntries sorts hits by rank, then by name exactly as compareNames orders names (through plain
// keys where it can), then by catalogue: checked against that comparator itself on mixed names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rankEntries } from '../../src/app/search.js';
import { compareNames } from '../../src/core/compare-names.js';
import type { LoadedCatalogue } from '../../src/sources/catalogues/cache.js';
import type { CatalogueEntry } from '../../src/sources/catalogues/types.js';

function catalogue(label: string, entries: CatalogueEntry[]): LoadedCatalogue {
  return {
    ref: { url: `https://example.org/${label}`, format: 'keeper' },
    label,
    entries,
    fetchedAt: undefined,
    via: 'cache',
    notes: [],
  };
}

void test('hits: by rank, then name as compareNames orders it, then catalogue', () => {
  const stems = [
    'Note',
    'note',
    'note-x',
    'note_x',
    'note.x',
    'note+x',
    'note2',
    'NoteX',
    'notes',
    'café-note',
    'note é',
  ];
  const entries = (salt: number): CatalogueEntry[] =>
    stems.map((name, i) => ({ name, description: (i + salt) % 3 === 0 ? 'a note taker' : 'an app' }));
  const hits = rankEntries([catalogue('B', entries(0)), catalogue('A', entries(1))], ['note']);
  assert.equal(hits.length, stems.length * 2);
  const expected = [...hits].sort(
    (a, b) => a.rank - b.rank || compareNames(a.name, b.name) || compareNames(a.catalogue, b.catalogue),
  );
  assert.deepEqual(
    hits.map((h) => `${h.rank} ${h.name} ${h.catalogue}`),
    expected.map((h) => `${h.rank} ${h.name} ${h.catalogue}`),
  );
  assert.deepEqual(
    hits.slice(0, 4).map((h) => `${h.name} ${h.catalogue}`),
    ['note A', 'note B', 'Note A', 'Note B'],
  );
});
