// The catalogue finder on its own: which hint makes a confident match, what is only suggested,
// and that an unreadable catalogue or a failing release is a note while an archived one is the answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  catalogueFinder,
  identityHints,
  type CatalogueLookups,
} from '../../src/app/adopt/catalogue-finder.js';
import type { AdoptInspection } from '../../src/app/adopt/inspect.js';
import type { FinderContext, FromUrl } from '../../src/app/adopt/source-finders.js';
import { KeeperError } from '../../src/core/errors.js';
import type { LoadedCatalogue } from '../../src/sources/catalogues/cache.js';
import type { CatalogueEntry } from '../../src/sources/catalogues/types.js';

function inspection(over: Partial<AdoptInspection>): AdoptInspection {
  return {
    file: '/home/me/Downloads/thing-2.1-x86_64.AppImage',
    arch: 'x86_64',
    appImageType: 2,
    updateInfo: { transport: 'none' },
    signed: false,
    appStream: {},
    warnings: [],
    ...over,
  };
}

function catalogue(label: string, entries: CatalogueEntry[]): LoadedCatalogue {
  return {
    ref: { url: `https://cat.example/${label}`, format: 'keeper' },
    label,
    entries,
    fetchedAt: undefined,
    via: 'fetched',
    notes: [],
  };
}

const entry = (name: string, repository: string): CatalogueEntry => ({ name, description: '', repository });

function lookups(cats: LoadedCatalogue[] | Error): CatalogueLookups {
  return {
    catalogues: () => (cats instanceof Error ? Promise.reject(cats) : Promise.resolve(cats)),
    entrySource: ({ entry: e }) =>
      Promise.resolve(
        e.repository ? { kind: 'repository', repository: e.repository } : { kind: 'none', why: 'nothing' },
      ),
  };
}

function context(fromUrl: FromUrl): FinderContext {
  return {
    nodeArch: 'x64',
    name: 'thing',
    lookupRelease: () => Promise.reject(new Error('unused')),
    isKnownForge: () => false,
    repositoryOf: () => undefined,
    notes: [],
    suggestions: [],
    fromUrl,
  };
}

const forge: FromUrl = (url) =>
  Promise.resolve({
    strategy: { strategy: 'forge', repository: url, asset_match: 'thing-*-x86_64.AppImage' },
    source: '',
    notes: [],
  });

void describe('catalogue finder', () => {
  void test('the AppStream id tail and StartupWMClass are confident hints; the file prefix loses its version and arch', async () => {
    assert.equal(identityHints(inspection({})).filePrefix, 'thing');
    const cats = [catalogue('AM', [entry('obsidian', 'obsidianmd/obsidian-releases')])];
    const byId = inspection({ displayName: 'Notes', appStream: { id: 'md.obsidian.Obsidian' } });
    const ctx = context(forge);
    const found = await catalogueFinder(lookups(cats))(byId, ctx);
    assert.deepEqual(found?.match, {
      catalogue: 'AM',
      entry: 'obsidian',
      by: 'AppStream id',
      confidence: 'confident',
      source: 'obsidianmd/obsidian-releases',
      fit: 'its asset pattern thing-*-x86_64.AppImage selects thing-2.1-x86_64.AppImage',
    });
    assert.equal(found?.confirm, true);
    assert.equal(found?.source, 'AM: obsidian → obsidianmd/obsidian-releases, by AppStream id');
    const byClass = await catalogueFinder(lookups(cats))(
      inspection({ displayName: 'Something Else', wmClass: 'obsidian' }),
      context(forge),
    );
    assert.equal(byClass?.match?.by, 'StartupWMClass');
  });

  void test('two sources with the exact name tie: both suggested (with their command), none taken', async () => {
    const cats = [
      catalogue('AppImageHub', [entry('Thing', 'a/thing')]),
      catalogue('AM', [entry('thing', 'b/thing')]),
    ];
    const ctx = context(() => Promise.reject(new Error('must not be called')));
    const found = await catalogueFinder(lookups(cats))(inspection({ displayName: 'Thing' }), ctx);
    assert.equal(found, undefined);
    assert.deepEqual(
      ctx.suggestions.map((s) => [s.source, s.confidence, s.adopt]),
      [
        [
          'a/thing',
          'weak',
          'appimage-keeper adopt /home/me/Downloads/thing-2.1-x86_64.AppImage --url a/thing',
        ],
        [
          'b/thing',
          'weak',
          'appimage-keeper adopt /home/me/Downloads/thing-2.1-x86_64.AppImage --url b/thing',
        ],
      ],
    );
    assert.match(ctx.notes.join('\n'), /2 catalogue entries match by name with different sources/);
  });

  void test('catalogues that cannot be read, or a release without an AppImage, are notes; an archived repository is the answer', async () => {
    const offline = context(forge);
    const unreadable = new KeeperError(
      'CATALOGUE_UNAVAILABLE',
      'no catalogue could be read, and none is cached',
    );
    assert.equal(
      await catalogueFinder(lookups(unreadable))(inspection({ displayName: 'Thing' }), offline),
      undefined,
    );
    assert.match(offline.notes.join('\n'), /no catalogue could be matched: no catalogue could be read/);

    const cats = [catalogue('AppImageHub', [entry('Thing', 'a/thing')])];
    const noAppImage = context(() =>
      Promise.reject(new KeeperError('ADD_NO_APPIMAGE', 'the release has no AppImage')),
    );
    assert.equal(
      await catalogueFinder(lookups(cats))(inspection({ displayName: 'Thing' }), noAppImage),
      undefined,
    );
    assert.match(
      noAppImage.notes.join('\n'),
      /AppImageHub entry "Thing" matches by desktop Name, but a\/thing: the release has no AppImage/,
    );

    let asked: { entry: string; hint: string } | undefined;
    const archived = context((_url, _name, refuse) => {
      asked = refuse;
      return Promise.reject(new KeeperError('CATALOGUE_ENTRY_ARCHIVED', `${refuse?.entry} is archived`));
    });
    await assert.rejects(
      catalogueFinder(lookups(cats))(inspection({ displayName: 'Thing' }), archived),
      (e: KeeperError) => e.code === 'CATALOGUE_ENTRY_ARCHIVED',
    );
    assert.equal(asked?.entry, 'AppImageHub entry "Thing"');
    assert.match(
      asked?.hint ?? '',
      /adopt \/home\/me\/Downloads\/thing-2\.1-x86_64\.AppImage --url a\/thing/,
    );
  });
});
