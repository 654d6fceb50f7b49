// `search` from the cache loads only what a cache hit needs (docs/decisions.md, "Start-up"): not
// the HTTP client (proxy and CA code) and not the catalogue readers' schemas, which load when a
// copy is revalidated. And what a tampered cache holds reaches the terminal escaped.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { serveCatalogues, type ServedCatalogues } from '../../../sim/index.js';
import { CLI_PATH } from '../../helpers/run-cli.js';
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

// The bundle's files the CLI loaded (a loader hook in its own process records them), with its
// output. Spawned asynchronously: the sim it may ask runs in this process.
async function loadedFiles(
  w: SimWorld,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; files: string[] }> {
  const log = join(w.home.root, `loaded-${Date.now()}-${Math.random()}.txt`);
  const hook = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
      return next(url, context);
    }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI_PATH, ...args],
    { env: w.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  const text = await readFile(log, 'utf8').catch(() => '');
  const files = text
    .split('\n')
    .filter(Boolean)
    .map((u) => new URL(u).pathname);
  return { code, stdout, stderr, files };
}

// The sources bundled into the loaded files (esbuild's `// src/...` markers).
async function sourcesOf(files: string[]): Promise<Set<string>> {
  const sources = new Set<string>();
  for (const file of files)
    for (const m of (await readFile(file, 'utf8')).matchAll(/^\/\/ (src\/\S+\.ts)$/gm))
      sources.add(m[1] as string);
  return sources;
}

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
    const hitSources = await sourcesOf(hit.files);
    assert.ok(hitSources.has('src/sources/catalogues/cache.ts'), [...hitSources].join(' '));
    for (const s of NETWORK_ONLY) assert.ok(!hitSources.has(s), `a cache hit loaded ${s}`);

    const refresh = await loadedFiles(w, ['--json', 'search', '--refresh', 'obsidian']);
    assert.equal(refresh.code, 0, refresh.stderr);
    const json = JSON.parse(refresh.stdout) as { catalogues: { via: string }[] };
    assert.deepEqual(
      json.catalogues.map((c) => c.via),
      ['not-modified', 'not-modified', 'not-modified'],
    );
    const refreshSources = await sourcesOf(refresh.files);
    assert.ok(refreshSources.has('src/http/http.ts'));
  });

  void test('a tampered cache: escapes in its entries reach the terminal escaped, never raw', async () => {
    const w = await suite.world(serve());
    assert.equal((await w.run(['search', 'obsidian'])).code, 0);
    const dir = join(w.home.root, 'cache', 'appimage-keeper', 'catalogues');
    // Entries of the right shape and size, with terminal controls in every text field.
    for (const f of await readdir(dir)) {
      const rec = JSON.parse(await readFile(join(dir, f), 'utf8')) as { entries: unknown[][] };
      rec.entries = [
        [
          'obsidian\u001b]0;pwned\u0007',
          'clear \u001b[2J\u001b[31mred\u009b0m \u202eevil',
          'e2e/Obs\u001b[1midian',
        ],
      ];
      await writeFile(join(dir, f), JSON.stringify(rec));
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
