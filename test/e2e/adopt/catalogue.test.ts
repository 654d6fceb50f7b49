// `search` and `add NAME` end to end: the sim serves an AppImageHub feed, an AM list with its
// install scripts and a keeper index (with ETags); the built CLI reads, caches and revalidates them.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { serveCatalogues, type ServedCatalogues } from '../../../sim/index.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { catalogueLines, makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';

interface Hit {
  name: string;
  repository: string | null;
  catalogue: string;
  repackaged: boolean;
  rank: number;
}
interface SearchJson {
  hits: Hit[];
  catalogues: { label: string; via: string; entries: number }[];
  notes: string[];
}
interface ErrorJson {
  error: {
    code: string;
    message: string;
    hint?: string | null;
    details?: { candidates?: { source: string; add: string }[] };
  };
}

const suite = useSimSuite((sim, served: ServedCatalogues) =>
  makeSimWorld(sim, {
    configLines: ['manage_desktop_files: false', ...catalogueLines(served, ['hub', 'am', 'keeper'])],
  }),
);

function serve(): ServedCatalogues {
  const s = suite.sim;
  return serveCatalogues(s, {
    hub: [
      {
        name: 'Obsidian',
        description: '<p>A knowledge base\non local Markdown files.</p>',
        github: 'e2e/Obsidian',
        license: 'Proprietary',
      },
      { name: 'ObsidianTools', description: 'Helpers for notes', github: 'pkgforge-dev/obsidian-tools' },
      { name: 'Stale', description: 'Ships only a .deb now', github: 'e2e/Stale' },
      { name: 'Gone', description: 'Repository deleted', github: 'e2e/Gone' },
      { name: 'Notes', description: 'Plain notes', github: 'e2e/NotesA' },
    ],
    am: [
      { name: 'obsidian', description: 'Obsidian, knowledge base (AppImage).', site: 'e2e/Obsidian' },
      { name: 'notes', description: 'Notes app, another upstream.', site: 'e2e/NotesB' },
      {
        name: 'liar',
        description: 'Says one thing, fetches another.',
        site: 'e2e/Liar',
        queries: 'evil/payload',
      },
    ],
    keeper: [
      { name: 'dl', description: 'Download-only, unversioned', url: `${s.url}/files/dl.AppImage` },
      {
        name: 'pinned',
        description: 'Download-only, versioned',
        url: `${s.url}/files/pinned-1.2.3-x86_64.AppImage`,
      },
    ],
  });
}

function releaseOf(repo: string, version: string, files: string[]): void {
  const s = suite.sim;
  s.hub.setLatest('e2e', repo, {
    tag: `v${version}`,
    assets: files.map((f) => ({ name: f, url: s.putAsset(`/dl/${repo}/${version}/${f}`, Buffer.from(f)) })),
  });
}

async function world(): Promise<SimWorld> {
  return suite.world(serve());
}

const catalogueRequests = (): string[] =>
  suite.sim.requests
    .filter((r) => r.path.startsWith('/cat/') && !r.path.includes('/programs/x86_64/'))
    .map((r) => r.path);

void describe('search', () => {
  void test('ranked (exact name first), one line each with source, catalogue and the repackaged mark', async () => {
    const w = await world();
    const r = await w.run<SearchJson>(['--json', 'search', 'obsidian']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const hits = r.json?.hits ?? [];
    assert.deepEqual(
      hits.map((h) => [h.name, h.catalogue, h.rank, h.repackaged]),
      [
        ['obsidian', 'AM', 0, false],
        ['Obsidian', 'AppImageHub', 0, false],
        ['ObsidianTools', 'AppImageHub', 1, true],
      ],
    );
    assert.deepEqual(
      r.json?.catalogues.map((c) => [c.label, c.via, c.entries]),
      [
        ['AppImageHub', 'fetched', 5],
        ['AM', 'fetched', 3],
        ['keeper', 'fetched', 2],
      ],
    );
    const human = await w.run(['search', 'knowledge']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^obsidian\s+\(AM script\)\s+AM\s+Obsidian, knowledge base/m);
    assert.match(
      human.stdout,
      /^Obsidian\s+e2e\/Obsidian\s+AppImageHub\s+A knowledge base on local Markdown/m,
    );
    const tools = await w.run(['search', 'helpers']);
    assert.match(tools.stdout, /ObsidianTools\s+pkgforge-dev\/obsidian-tools\s+AppImageHub \(repackaged\)/);
    const none = await w.run(['search', 'zzzz']);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /no app matches zzzz/);
  });

  void test('cached for 24 h; --refresh with nothing changed = one conditional request per catalogue, 304', async () => {
    const w = await world();
    assert.equal((await w.run(['search', 'notes'])).code, 0);
    suite.sim.clearRequests();
    const cached = await w.run<SearchJson>(['--json', 'search', 'notes']);
    assert.equal(cached.code, 0, cached.stderr);
    assert.deepEqual(catalogueRequests(), [], 'a fresh cache is not revalidated');
    assert.deepEqual(
      cached.json?.catalogues.map((c) => c.via),
      ['cache', 'cache', 'cache'],
    );
    // Shell completion after `add`: the cached names, no request.
    const names = await w.run(['search', '--names']);
    assert.equal(names.code, 0, names.stderr);
    assert.deepEqual(names.stdout.trim().split('\n'), [
      'Gone',
      'Notes',
      'Obsidian',
      'ObsidianTools',
      'Stale',
      'dl',
      'liar',
      'notes',
      'obsidian',
      'pinned',
    ]);
    assert.deepEqual(catalogueRequests(), []);
    const bash = await w.run(['completion', 'bash']);
    assert.match(bash.stdout, /add\)[\s\S]*?0\) _ak_words="\$\(_appimage_keeper_catalogue_names\)"/);
    suite.sim.clearRequests();
    const refreshed = await w.run<SearchJson>(['--json', 'search', '--refresh', 'notes']);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const sent = suite.sim.requests.filter((r) => r.path.startsWith('/cat/'));
    assert.equal(sent.length, 3, sent.map((r) => r.path).join(' '));
    for (const r of sent) assert.ok(r.headers['if-none-match'], `${r.path} was not conditional`);
    assert.deepEqual(
      refreshed.json?.catalogues.map((c) => c.via),
      ['not-modified', 'not-modified', 'not-modified'],
    );
    assert.equal(refreshed.json?.hits.length, 3);
  });

  void test('offline: search answers from the cache with a note; with no cache, one clear error', async () => {
    const w = await world();
    const fresh = await suite.world(serve());
    assert.equal((await w.run(['search', 'notes'])).code, 0);
    // The connection dies before a byte of the answer: what a dropped network looks like.
    suite.sim.fault(/^\/cat\//, { body: 'x', dropAfterBytes: 0 });
    try {
      const r = await w.run<SearchJson>(['--json', 'search', '--refresh', 'notes']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json?.hits.length, 3);
      assert.deepEqual(
        r.json?.catalogues.map((c) => c.via),
        ['stale', 'stale', 'stale'],
      );
      assert.match(r.json?.notes[0] ?? '', /using the copy from \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      const human = await w.run(['search', '--refresh', 'notes']);
      assert.match(human.stderr, /warning: AppImageHub .* using the copy from/);
      const none = await fresh.run<ErrorJson>(['--json', 'search', 'notes']);
      assert.equal(none.code, 1);
      assert.equal(none.json?.error.code, 'CATALOGUE_UNAVAILABLE');
    } finally {
      suite.sim.clearFaults();
    }
  });
});

void describe('add NAME', () => {
  void test('one clear match (two catalogues, one upstream) → a forge recipe named NAME from the live release', async () => {
    const w = await world();
    releaseOf('Obsidian', '1.7.7', [
      'Obsidian-1.7.7.AppImage',
      'Obsidian-1.7.7-arm64.AppImage',
      'obsidian_1.7.7_amd64.deb',
    ]);
    const r = await w.run(['--json', 'add', 'obsidian']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const file = join(w.home.appsDir, 'obsidian', 'obsidian.yml');
    const text = await readFile(file, 'utf8');
    assert.deepEqual(parse(text), {
      name: 'obsidian',
      strategy: {
        strategy: 'forge',
        repository: `${suite.sim.url}/e2e/Obsidian`,
        asset_match: 'Obsidian-*.AppImage',
      },
    });
    assert.match(text, /^# catalogue: AppImageHub http:\/\/.*\/cat\/feed\.json entry Obsidian$/m);
    assert.equal((await w.run(['validate', 'obsidian'])).code, 0);
    // The catalogue entry is part of the full record (-v); the plain view stays ten lines.
    const info = await w.run(['-v', 'info', 'obsidian']);
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.stdout, /catalogue\s+AppImageHub entry Obsidian/);
    assert.match(info.stdout, /description\s+A knowledge base on local Markdown files\./);
    assert.match(info.stdout, /homepage\s+https:\/\/github\.com\/e2e\/Obsidian/);
    assert.match(info.stdout, /license\s+Proprietary/);
    const infoJson = await w.run<{ app: { catalogue: { license: string } } }>(['--json', 'info', 'obsidian']);
    assert.equal(infoJson.json?.app.catalogue.license, 'Proprietary');
  });

  void test('several sources → the candidates, exit 2, and a machine-readable list with --json', async () => {
    const w = await world();
    const r = await w.run<ErrorJson>(['--json', 'add', 'notes']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.json?.error.code, 'ADD_NAME_AMBIGUOUS');
    assert.deepEqual(
      r.json?.error.details?.candidates?.map((c) => [c.source, c.add]),
      [
        ['e2e/NotesA', 'appimage-keeper add e2e/NotesA --name notes'],
        ['e2e/NotesB', 'appimage-keeper add e2e/NotesB --name notes'],
      ],
    );
    const human = await w.run(['add', 'notes']);
    assert.equal(human.code, 2);
    assert.match(human.stderr, /2 catalogue entries are named notes/);
    assert.match(human.stderr, /appimage-keeper add e2e\/NotesA --name notes/);
  });

  void test('stale entries: no AppImage in the latest release, a gone repository, an untrusted script, an unknown name', async () => {
    const w = await world();
    releaseOf('Stale', '2.0.0', ['stale_2.0.0_amd64.deb']);
    const stale = await w.run<ErrorJson>(['--json', 'add', 'stale']);
    assert.equal(stale.code, 1, stale.stdout + stale.stderr);
    assert.equal(stale.json?.error.code, 'CATALOGUE_ENTRY_UNUSABLE');
    assert.match(stale.json?.error.message ?? '', /^AppImageHub entry "Stale" names e2e\/Stale: .*AppImage/);
    const gone = await w.run<ErrorJson>(['--json', 'add', 'gone']);
    assert.equal(gone.json?.error.code, 'CATALOGUE_ENTRY_UNUSABLE');
    assert.match(gone.json?.error.message ?? '', /^AppImageHub entry "Gone" names e2e\/Gone: /);
    const liar = await w.run<ErrorJson>(['--json', 'add', 'liar']);
    assert.equal(liar.json?.error.code, 'CATALOGUE_ENTRY_UNUSABLE');
    assert.match(
      liar.json?.error.message ?? '',
      /AM entry "liar" has no usable source: .*queries evil\/payload: not trusted/,
    );
    assert.ok(
      !suite.sim.requests.some((r) => r.path.includes('evil')),
      'nothing was fetched from the lying script',
    );
    const unknown = await w.run<ErrorJson>(['--json', 'add', 'obsidia']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.json?.error.code, 'CATALOGUE_NO_MATCH');
    assert.match(unknown.json?.error.hint ?? '', /did you mean obsidian/i);
  });

  void test('download-only: an unversioned URL becomes a direct recipe; a versioned one is refused', async () => {
    const w = await world();
    suite.sim.putAsset('/files/dl.AppImage', Buffer.from('dl'));
    const r = await w.run(['--json', 'add', 'dl']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(parse(await readFile(join(w.home.appsDir, 'dl', 'dl.yml'), 'utf8')), {
      name: 'dl',
      strategy: { strategy: 'direct', url: `${suite.sim.url}/files/dl.AppImage`, check_method: 'etag' },
    });
    const pinned = await w.run<ErrorJson>(['--json', 'add', 'pinned']);
    assert.equal(pinned.code, 1);
    assert.equal(pinned.json?.error.code, 'CATALOGUE_DOWNLOAD_VERSIONED');
    assert.match(
      pinned.json?.error.message ?? '',
      /keeper entry "pinned" offers only .*pinned-1\.2\.3-x86_64\.AppImage/,
    );
  });
});
