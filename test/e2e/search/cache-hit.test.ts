// `search` from the cache loads only what a cache hit needs (docs/decisions.md, "Start-up"): not
// the HTTP client (proxy and CA code) and not the catalogue readers' schemas, which load when a
// copy is revalidated. And what a tampered cache holds reaches the terminal escaped.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { serveCatalogues, type ServedCatalogues } from '../../../sim/index.js';
import { bundledSources, runRecordingLoads, type RecordedRun } from '../../helpers/loaded-modules.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';

const suite = useSimSuite((sim, served: ServedCatalogues) =>
  makeSimWorld(sim, {
    configLines: ['catalogues:', `  - ${served.hub}`, `  - ${served.am}`, `  - ${served.keeper}`],
  }),
);

function serve(): ServedCatalogues {
  return serveCatalogues(suite.sim, {
    hub: [{ name: 'Obsidian', description: '<p>Notes.</p>', github: 'e2e/Obsidian' }],
    am: [{ name: 'obsidian', description: 'Obsidian (AppImage).', site: 'e2e/Obsidian' }],
    keeper: [{ name: 'obsidian-org', description: 'Approved', repository: 'e2e/Obsidian' }],
  });
}

// The files the CLI loaded, with its output.
const loadedFiles = (w: SimWorld, args: string[]): Promise<RecordedRun> =>
  runRecordingLoads(args, w.env, w.home.root);

// What a terminal acts on or reorders: C0 but tab and newline, DEL, C1, a bidi override.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

// What a search from the cache never needs: the network, the readers' schemas, the recipes.
const NETWORK_ONLY = [
  'src/config/workspace.ts',
  'src/config/discover.ts',
  'src/http/http.ts',
  'src/http/transport.ts',
  'src/sources/catalogues/appimagehub.ts',
  'src/sources/catalogues/keeper.ts',
];

void describe('search from the cache', () => {
  void test('a cache hit loads neither the HTTP client, the readers nor the recipes; a revalidation does', async () => {
    const w = await suite.world(serve());
    await w.writeForgeRecipe('notes');
    const first = await w.run(['search', 'obsidian']);
    assert.equal(first.code, 0, first.stderr);
    suite.sim.clearRequests();

    const hit = await loadedFiles(w, ['search', 'obsidian']);
    assert.equal(hit.code, 0, hit.stderr);
    assert.match(hit.stdout, /Obsidian/);
    assert.deepEqual(suite.sim.requests, [], 'a fresh cache is not revalidated');
    const hitSources = await bundledSources(hit.files);
    assert.ok(hitSources.has('src/sources/catalogues/cache.ts'), [...hitSources].join(' '));
    for (const s of NETWORK_ONLY) assert.ok(!hitSources.has(s), `a cache hit loaded ${s}`);

    const refresh = await loadedFiles(w, ['--json', 'search', '--refresh', 'obsidian']);
    assert.equal(refresh.code, 0, refresh.stderr);
    const json = JSON.parse(refresh.stdout) as { catalogues: { via: string }[] };
    assert.deepEqual(
      json.catalogues.map((c) => c.via),
      ['not-modified', 'not-modified', 'not-modified'],
    );
    const refreshSources = await bundledSources(refresh.files);
    assert.ok(refreshSources.has('src/http/http.ts'));
  });

  void test('a tampered cache: escapes in its entries reach the terminal escaped, never raw', async () => {
    const w = await suite.world(serve());
    assert.equal((await w.run(['search', 'obsidian'])).code, 0);
    const dir = join(w.home.root, 'cache', 'appimage-keeper', 'catalogues');
    // Entries of the right shape and size, with terminal controls in every text field.
    // The record is a header line, then one entry a line.
    for (const f of await readdir(dir)) {
      const [head = ''] = (await readFile(join(dir, f), 'utf8')).split('\n');
      const entry = [
        'obsidian\u001b]0;pwned\u0007',
        'clear \u001b[2J\u001b[31mred\u009b0m \u202eevil',
        'e2e/Obs\u001b[1midian',
      ];
      const header = { ...(JSON.parse(head) as Record<string, unknown>), entries: 1 };
      await writeFile(join(dir, f), `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n`);
    }
    const human = await w.run(['search', 'obsidian']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /obsidian/);
    for (const out of [human.stdout, human.stderr])
      assert.doesNotMatch(out, RAW_CONTROL, JSON.stringify(out));
    const json = await w.run<{ hits: { name: string; description: string }[] }>([
      '--json',
      'search',
      'obsidian',
    ]);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.json?.hits[0]?.name, 'obsidian\u001b]0;pwned\u0007');
    assert.equal(json.json?.hits[0]?.description, 'clear \u001b[2J\u001b[31mred\u009b0m \u202eevil');
    assert.doesNotMatch(json.stdout, RAW_CONTROL);
  });
});
