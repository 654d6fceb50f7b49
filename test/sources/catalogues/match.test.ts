// matchCatalogues: what an AppImage says of itself against catalogue names (for adopt's finder).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchCatalogues } from '../../../src/sources/catalogues/match.js';

const entries = [
  { name: 'Obsidian', description: '' },
  { name: 'visual-studio-code', description: '' },
  { name: 'obsidian-helper', description: '' },
  { name: 'Joplin', description: '' },
];

void test('desktop Name, AppStream id and StartupWMClass match exactly (folded) and are confident', () => {
  const byName = matchCatalogues({ desktopName: 'Visual Studio Code' }, entries);
  assert.deepEqual(
    byName.map((m) => [m.entry.name, m.by, m.confidence]),
    [['visual-studio-code', 'desktop Name', 'confident']],
  );
  const byId = matchCatalogues({ appstreamId: 'md.obsidian.Obsidian.desktop' }, entries);
  assert.deepEqual(
    byId.filter((m) => m.confidence === 'confident').map((m) => [m.entry.name, m.by]),
    [['Obsidian', 'AppStream id']],
  );
  const byClass = matchCatalogues({ wmClass: 'joplin' }, entries);
  assert.deepEqual(
    byClass.map((m) => [m.entry.name, m.by, m.confidence]),
    [['Joplin', 'StartupWMClass', 'confident']],
  );
});

void test('a file prefix alone, or a name that only starts alike, is weak, listed after the confident ones', () => {
  const m = matchCatalogues({ desktopName: 'Obsidian', filePrefix: 'Joplin' }, entries);
  assert.deepEqual(
    m.map((x) => [x.entry.name, x.by, x.confidence]),
    [
      ['Obsidian', 'desktop Name', 'confident'],
      ['Joplin', 'file name', 'weak'],
      ['obsidian-helper', 'desktop Name', 'weak'],
    ],
  );
});

void test('no hints, or hints too short to mean anything, match nothing', () => {
  assert.deepEqual(matchCatalogues({}, entries), []);
  assert.deepEqual(matchCatalogues({ desktopName: 'O', filePrefix: 'ob' }, entries), []);
});
