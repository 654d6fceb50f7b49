// The catalogue readers on their documented shapes, the real AppImageHub sample, and hostile text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { amReader, amScriptUrl } from '../../../src/sources/catalogues/am.js';
import { amScriptSource } from '../../../src/sources/catalogues/am-script.js';
import { appImageHubReader } from '../../../src/sources/catalogues/appimagehub.js';
import { keeperReader } from '../../../src/sources/catalogues/keeper.js';
import { configuredCatalogues, formatOfUrl } from '../../../src/sources/catalogues/registry.js';
import { entryRank, searchTerms } from '../../../src/sources/catalogues/rank.js';
import { isRepackaged } from '../../../src/sources/catalogues/repackagers.js';
import { toKeeperError } from '../../../src/core/errors.js';
import { MAX_CATALOGUE_ENTRIES } from '../../../src/sources/catalogues/types.js';
import { corpusFile, skipWithoutCorpus } from '../../helpers/corpus.js';

const SAMPLE = corpusFile('appimagehub-sample.json');

void describe('AppImageHub feed', () => {
  void test(
    'the 100 real entries parse; GitHub links become owner/repo, releases pages too',
    { skip: skipWithoutCorpus() },
    () => {
      const r = appImageHubReader.parse(
        readFileSync(SAMPLE ?? '', 'utf8'),
        'https://appimage.github.io/feed.json',
      );
      assert.equal(r.entries.length + r.skipped, 100);
      assert.ok(r.entries.length >= 95, `only ${r.entries.length} parsed`);
      const box = r.entries.find((e) => e.name === '86Box');
      assert.equal(box?.repository, '86Box/86Box');
      assert.equal(box?.download, undefined);
      const withRepo = r.entries.filter((e) => e.repository).length;
      assert.ok(withRepo >= 70, `${withRepo} with a repository`);
      for (const e of r.entries)
        assert.ok(!e.description.includes('<') && !e.description.includes('\n'), e.description);
    },
  );

  void test('HTML descriptions become one line; a Download-only entry keeps its URL; junk items are skipped', () => {
    const feed = {
      items: [
        {
          name: 'Tool',
          description: '<p>\n</p><p>A <b>fine</b>\ntool</p>',
          links: [{ type: 'Download', url: 'https://example.org/Tool.AppImage' }],
        },
        { name: 42 },
        'nonsense',
        {
          name: 'Repo',
          links: [
            { type: 'GitHub', url: '../etc/passwd' },
            { type: 'GitHub', url: 'o/r' },
          ],
        },
      ],
    };
    const r = appImageHubReader.parse(JSON.stringify(feed), 'u');
    assert.equal(r.skipped, 2);
    assert.deepEqual(
      r.entries.map((e) => [e.name, e.description, e.repository, e.download]),
      [
        ['Tool', 'A fine tool', undefined, 'https://example.org/Tool.AppImage'],
        ['Repo', '', 'o/r', undefined],
      ],
    );
  });

  void test('not a feed, or nested beyond the limit → CATALOGUE_INVALID', () => {
    for (const text of ['{"items": 3}', 'not json', `${'['.repeat(100)}${']'.repeat(100)}`])
      assert.equal(
        toKeeperError(captured(() => appImageHubReader.parse(text, 'u'))).code,
        'CATALOGUE_INVALID',
      );
  });
});

function captured(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
}

void describe('AM list and scripts', () => {
  const list = [
    'This is the list of all the apps available',
    '◆ obsidian : Obsidian is a powerful knowledge base.',
    '◆ zen-browser : Unofficial AppImage of the Zen browser.',
    '◆ ../etc : sneaky',
    '',
  ].join('\n');

  void test('lines become entries with their script URL beside the list; malformed names are skipped', () => {
    const url = 'https://raw.githubusercontent.com/ivan-hc/AM/main/programs/x86_64-apps';
    const r = amReader.parse(list, url);
    assert.equal(r.skipped, 1);
    assert.deepEqual(
      r.entries.map((e) => [e.name, e.script, e.repackaged]),
      [
        ['obsidian', 'https://raw.githubusercontent.com/ivan-hc/AM/main/programs/x86_64/obsidian', undefined],
        [
          'zen-browser',
          'https://raw.githubusercontent.com/ivan-hc/AM/main/programs/x86_64/zen-browser',
          true,
        ],
      ],
    );
    assert.equal(amScriptUrl('http://h/p/aarch64-apps', 'x'), 'http://h/p/aarch64/x');
    assert.equal(toKeeperError(captured(() => amReader.parse('<html>', url))).code, 'CATALOGUE_INVALID');
  });

  void test('past MAX_CATALOGUE_ENTRIES lines, the rest count as left out (as the JSON formats cap items)', () => {
    const lines = Array.from({ length: MAX_CATALOGUE_ENTRIES + 2 }, (_, i) => `◆ app${i} : App ${i}.`);
    const r = amReader.parse(`${lines.join('\n')}\n`, 'https://h/programs/x86_64-apps');
    assert.equal(r.entries.length, MAX_CATALOGUE_ENTRIES);
    assert.equal(r.skipped, 2);
    assert.equal(r.entries.at(-1)?.name, `app${MAX_CATALOGUE_ENTRIES - 1}`);
  });

  void test('SITE and the releases API call must agree; the script is only read', () => {
    const ok =
      'APP=obsidian\nSITE="obsidianmd/obsidian-releases"\nversion=$(curl -Ls https://api.github.com/repos/$SITE/releases | grep x)\n';
    assert.deepEqual(amScriptSource(ok), { ok: true, repository: 'obsidianmd/obsidian-releases' });
    const literal = 'SITE="a/b"\ncurl https://api.github.com/repos/a/b/releases/latest\n';
    assert.deepEqual(amScriptSource(literal), { ok: true, repository: 'a/b' });
    const lying = 'SITE="good/app"\ncurl https://api.github.com/repos/evil/app/releases\n';
    const r = amScriptSource(lying);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.why, /not trusted/);
    assert.equal(amScriptSource('echo hi').ok, false);
    assert.equal(amScriptSource('SITE="a/b"\nwget https://example.org/x.AppImage\n').ok, false);
    assert.equal(amScriptSource('SITE="../../x"\n').ok, false);
  });
});

void describe('keeper index, registry, ranking, repackagers', () => {
  void test('keeper entries keep their recipe; bad names are skipped', () => {
    const r = keeperReader.parse(
      JSON.stringify({
        apps: [
          {
            name: 'tool',
            description: 'T',
            repository: 'org/tool',
            recipe: {
              strategy: {
                strategy: 'forge',
                repository: 'https://github.com/org/tool',
                asset_match: 'tool-*.AppImage',
              },
            },
          },
          { name: 'dl', url: 'https://example.org/dl.AppImage' },
          { name: '../x' },
        ],
      }),
      'u',
    );
    assert.equal(r.skipped, 1);
    assert.equal(r.entries[0]?.repository, 'org/tool');
    assert.ok(r.entries[0]?.recipe);
    assert.equal(r.entries[1]?.download, 'https://example.org/dl.AppImage');
  });

  void test('formats from URLs, and the defaults per architecture', () => {
    assert.equal(formatOfUrl('https://x/programs/x86_64-apps'), 'am');
    assert.equal(formatOfUrl('https://appimage.github.io/feed.json'), 'appimagehub');
    assert.equal(formatOfUrl('https://corp.example/apps.json'), 'keeper');
    assert.match(configuredCatalogues(undefined, 'arm64')[1]?.url ?? '', /programs\/aarch64-apps$/);
    assert.deepEqual(configuredCatalogues([{ url: 'https://a/b', format: 'am' }], 'x64'), [
      { url: 'https://a/b', format: 'am' },
    ]);
  });

  void test('rank: exact < prefix < word < inside name < description; every term must match', () => {
    const e = (name: string, description = '') => ({ name, description });
    const t = searchTerms(['Code']);
    assert.deepEqual(
      [e('code'), e('codelite'), e('vs-code'), e('xcodebuild'), e('editor', 'edit code'), e('none')].map(
        (x) => entryRank(x, t),
      ),
      [0, 1, 2, 3, 4, undefined],
    );
    assert.equal(entryRank(e('obsidian', 'notes app'), searchTerms(['obsidian notes'])), 4);
    assert.equal(entryRank(e('obsidian', 'notes app'), searchTerms(['obsidian', 'pdf'])), undefined);
  });

  void test('repackaged: the owner is a known repackager, or the catalogue says so', () => {
    assert.equal(isRepackaged({ name: 'a', description: '' }, 'pkgforge-dev/a-appimage'), true);
    assert.equal(isRepackaged({ name: 'a', description: '' }, 'https://github.com/Ivan-HC/x'), true);
    assert.equal(isRepackaged({ name: 'a', description: '', repackaged: true }, 'org/a'), true);
    assert.equal(isRepackaged({ name: 'a', description: '' }, 'obsidianmd/obsidian-releases'), false);
  });
});
