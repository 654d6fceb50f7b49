// The catalogue cache: what a fetch keeps (our compact record, read back as the same entries the
// readers gave), and tampered copies, which must read as no copy (refetched in full, or missing
// with a note when offline), never crash, hang or be used.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveCatalogues, startSim, type ServedCatalogues } from '../../../sim/index.js';
import type { Sim } from '../../../sim/types.js';
import { createContext } from '../../../src/cli/runtime.js';
import type { Context } from '../../../src/context/context.js';
import { cacheFileOf } from '../../../src/sources/catalogues/cache-record.js';
import { loadCatalogue, type LoadedCatalogue } from '../../../src/sources/catalogues/cache.js';
import { MAX_CATALOGUE_ENTRIES, type CatalogueRef } from '../../../src/sources/catalogues/types.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';

let sim: Sim;
let home: TmpHome;
let ctx: Context;
let served: ServedCatalogues;
let refs: CatalogueRef[];

before(async () => {
  sim = await startSim();
  home = await makeTmpHome();
  ctx = createContext(
    { json: false, color: false, quiet: true, verbose: false, layout: 'user' },
    home.env,
    () => undefined,
  );
  served = serveCatalogues(sim, {
    hub: [
      { name: 'Obsidian', description: '<p>Notes.</p>', github: 'e2e/Obsidian', license: 'MIT' },
      { name: 'Plain', description: 'Download only', download: `${sim.url}/files/plain.AppImage` },
      { name: 'Esc\u001b[31m', description: 'red \u001b]0;title\u0007 text', github: 'pkgforge-dev/esc' },
    ],
    am: [
      { name: 'obsidian', description: 'Obsidian (AppImage).', site: 'e2e/Obsidian' },
      { name: 'helper', description: 'An unofficial build.' },
    ],
    keeper: [
      {
        name: 'org-app',
        description: 'Approved',
        repository: 'https://git.example.org/org/app',
        homepage: 'https://example.org/app',
        license: 'GPL-3.0',
        repackaged: true,
        recipe: { strategy: 'forge', asset_match: 'app-*.AppImage' },
      },
      { name: 'dl', description: 'Download', url: `${sim.url}/files/dl.AppImage` },
    ],
  });
  refs = [
    { url: served.hub, format: 'appimagehub' },
    { url: served.am, format: 'am' },
    { url: served.keeper, format: 'keeper' },
  ];
});
after(async () => {
  await home.cleanup();
  await sim.stop();
});

// The entries as data: fields a reader left undefined are not kept at all.
const plain = (c: LoadedCatalogue): unknown => JSON.parse(JSON.stringify(c.entries));

async function refetched(ref: CatalogueRef): Promise<LoadedCatalogue> {
  const fetched = await loadCatalogue(ctx, ref, { refresh: true });
  assert.ok(['fetched', 'not-modified'].includes(fetched.via), fetched.via);
  return fetched;
}

void describe('catalogue cache', () => {
  void test('a cached copy reads back as exactly the entries the reader gave, in a compact record', async () => {
    for (const ref of refs) {
      await rm(cacheFileOf(ctx, ref.url), { force: true });
      const fetched = await loadCatalogue(ctx, ref);
      assert.equal(fetched.via, 'fetched', ref.url);
      const cached = await loadCatalogue(ctx, ref);
      assert.equal(cached.via, 'cache', ref.url);
      assert.deepEqual(plain(cached), plain(fetched), ref.url);
      assert.ok(cached.entries.length >= 2);
    }
    const am = await loadCatalogue(ctx, refs[1] as CatalogueRef);
    assert.equal(am.entries[0]?.script, served.am.replace(/-apps$/, '/obsidian'));
    assert.equal(am.entries[1]?.repackaged, true);
    const keeper = await loadCatalogue(ctx, refs[2] as CatalogueRef);
    assert.deepEqual(keeper.entries[0]?.recipe, { strategy: 'forge', asset_match: 'app-*.AppImage' });
    // Implied fields (the AM script URL, the hub homepage) are not spelled out once per entry.
    const text = await readFile(cacheFileOf(ctx, served.am), 'utf8');
    assert.ok(!text.includes('/programs/x86_64/obsidian'), text);
    assert.match(text, /^\{"version":3,/);
  });

  void test('tampered copies read as no copy: refetched in full, never used, never a crash', async () => {
    const ref = refs[0] as CatalogueRef;
    const path = cacheFileOf(ctx, ref.url);
    await refetched(ref);
    // The record: a header line, then one line per entry.
    const [headLine = '', ...entryLines] = (await readFile(path, 'utf8')).trimEnd().split('\n');
    const good = JSON.parse(headLine) as Record<string, unknown>;
    const entries = entryLines.map((l) => JSON.parse(l) as unknown[]);
    const record = (head: Record<string, unknown>, list: unknown[] = entries): string =>
      [JSON.stringify(head), ...list.map((e) => JSON.stringify(e))].join('\n') + '\n';
    const withEntry = (e: unknown): string => record(good, [e, ...entries.slice(1)]);
    const tampered: [string, string][] = [
      ['not JSON', '{"version":3,'],
      ['empty', ''],
      ['null', 'null'],
      ['an array', '[]'],
      ['nested beyond the stack', '['.repeat(200_000)],
      ['the old layout', JSON.stringify({ ...good, version: 2, entries: [['x', 'y']] })],
      ['another URL', record({ ...good, url: `${ref.url}?other` })],
      ['another format', record({ ...good, format: 'keeper' })],
      ['a time with escapes', record({ ...good, fetchedAt: '2099-01-01T00:00:00Z\u001b[2J' })],
      ['a negative count', record({ ...good, skipped: -1 })],
      ['a fractional count', record({ ...good, skipped: 1.5 })],
      ['a validator that splits headers', record({ ...good, etag: '"a"\r\nX-Evil: 1' })],
      ['a validator with escapes', record({ ...good, lastModified: '\u001b[31m' })],
      ['fewer entries than the header says', record(good, entries.slice(1))],
      ['more entries than the header says', record(good, [...entries, entries[0]])],
      ['an entry count that is not a number', record({ ...good, entries: '3' })],
      ['a blank line among the entries', record(good).replace('\n', '\n\n')],
      [
        'too many entries',
        record(
          { ...good, entries: MAX_CATALOGUE_ENTRIES + 1 },
          Array(MAX_CATALOGUE_ENTRIES + 1).fill(['a', 'b']),
        ),
      ],
      [
        'a line past the bound',
        record(good, [['a', 'b', null, null, null, null, null, null, { x: 'x'.repeat(600_000) }]]),
      ],
      ['an entry as an object', withEntry({ name: 'a', description: 'b' })],
      ['a numeric name', withEntry([42, 'b'])],
      ['an empty name', withEntry(['', 'b'])],
      ['a name past the bound', withEntry(['n'.repeat(201), 'b'])],
      ['a description past the bound', withEntry(['a', 'd'.repeat(401)])],
      ['a repository past the bound', withEntry(['a', 'b', `o/${'r'.repeat(2000)}`])],
      ['a script code we never write', withEntry(['a', 'b', null, null, 2])],
      ['a homepage of the wrong type', withEntry(['a', 'b', null, null, null, { url: 'x' }])],
      ['a repackaged mark as text', withEntry(['a', 'b', null, null, null, null, null, 'yes'])],
      ['a recipe as a list', withEntry(['a', 'b', null, null, null, null, null, null, ['x']])],
      ['an entry too long', withEntry(['a', 'b', null, null, null, null, null, null, null, 'extra'])],
    ];
    for (const [what, text] of tampered) {
      await writeFile(path, text);
      const r = await loadCatalogue(ctx, ref);
      assert.equal(r.via, 'fetched', what);
      assert.deepEqual(
        r.entries.map((e) => e.name),
        ['Obsidian', 'Plain', 'Esc\u001b[31m'],
        what,
      );
      assert.equal((await loadCatalogue(ctx, ref)).via, 'cache', `${what}: rewritten`);
    }
  });

  void test('a FIFO, a folder or a huge file in the cache\u2019s place: no hang, no copy', async () => {
    const ref = refs[1] as CatalogueRef;
    const path = cacheFileOf(ctx, ref.url);
    const places: [string, () => Promise<void>][] = [
      ['a FIFO', () => Promise.resolve(void execFileSync('mkfifo', [path]))],
      ['a folder', () => mkdir(path).then(() => undefined)],
      // Sparse: past the bound without writing it.
      ['a huge file', () => writeFile(path, '').then(() => truncate(path, 65 * 1024 * 1024))],
    ];
    // Offline: no copy and no answer is the one clear note, never a crash or a hang.
    sim.fault(/^\/cat\//, { body: 'x', dropAfterBytes: 0 });
    try {
      for (const [what, place] of places) {
        await rm(path, { recursive: true, force: true });
        await place();
        const r = await loadCatalogue(ctx, ref);
        assert.equal(r.via, 'missing', what);
        assert.deepEqual(r.entries, [], what);
        assert.match(r.notes.join('\n'), /has no cached copy yet/, what);
      }
    } finally {
      sim.clearFaults();
      await rm(path, { recursive: true, force: true });
    }
  });

  void test('a copy of the first layout (named by the URL\u2019s SHA-256) is replaced, not left behind', async () => {
    const ref = refs[0] as CatalogueRef;
    const sha = createHash('sha256').update(ref.url).digest('hex').slice(0, 24);
    const legacy = join(dirname(cacheFileOf(ctx, ref.url)), `${sha}.json`);
    assert.notEqual(legacy, cacheFileOf(ctx, ref.url));
    await writeFile(legacy, JSON.stringify({ version: 1, url: ref.url, format: ref.format, entries: [] }));
    assert.equal((await loadCatalogue(ctx, ref, { refresh: true })).entries.length, 3);
    await assert.rejects(stat(legacy), { code: 'ENOENT' });
    assert.ok((await stat(cacheFileOf(ctx, ref.url))).isFile());
  });

  void test('a validator the record cannot keep is dropped, and the copy is still used', async () => {
    const index = JSON.stringify({
      apps: [{ name: 'odd', description: 'Odd validators', repository: 'e2e/odd' }],
    });
    const url = sim.putAsset('/cat/odd/keeper.json', Buffer.from(index), {
      etag: 'caf\u00e9',
      lastModified: false,
    });
    const ref: CatalogueRef = { url, format: 'keeper' };
    assert.equal((await loadCatalogue(ctx, ref)).via, 'fetched');
    const cached = await loadCatalogue(ctx, ref);
    assert.equal(cached.via, 'cache');
    assert.equal(cached.entries[0]?.name, 'odd');
  });

  void test('offline with a good copy: used stale, with the copy\u2019s time in the note', async () => {
    const ref = refs[2] as CatalogueRef;
    const fetched = await refetched(ref);
    sim.fault(/^\/cat\//, { body: 'x', dropAfterBytes: 0 });
    try {
      const r = await loadCatalogue(ctx, ref, { refresh: true });
      assert.equal(r.via, 'stale');
      assert.deepEqual(plain(r), plain(fetched));
      assert.match(r.notes[0] ?? '', /using the copy from \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    } finally {
      sim.clearFaults();
    }
  });
});
