// The cache of validated files (src/config/validated-cache.ts): used when a file's bytes are
// unchanged, ignored when damaged, bounded, never holding a secret, never written through a link.
import assert from 'node:assert/strict';
import { lstat, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig, loadSecrets } from '../../src/config/load-config.js';
import { loadRecipe } from '../../src/config/load-recipe.js';
import { readLockFile } from '../../src/config/lock-file.js';
import { resolvePaths, type Paths } from '../../src/config/paths.js';
import { MAX_CACHE_ENTRIES, VALIDATED_CACHE_FILE, ValidatedCache } from '../../src/config/validated-cache.js';
import { loadWorkspace } from '../../src/config/workspace.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

let h: TmpHome;
let paths: Paths;
before(async () => {
  h = await makeTmpHome();
  paths = resolvePaths(h.env, undefined, 'user');
});
after(async () => {
  await h.cleanup();
});

const cacheFile = (): string => join(paths.cacheDir, VALIDATED_CACHE_FILE);
const recipe = (name: string): string =>
  `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/o/${name}\n`;

async function load(name: string, text: string): Promise<Record<string, unknown>> {
  const file = await h.writeRecipe(name, text, 'flat');
  const cache = ValidatedCache.open(paths.cacheDir);
  const r = await loadRecipe({ id: name, file, dir: h.appsDir, layout: 'flat' }, {}, cache);
  await cache.save();
  return r.values;
}

void test('a recipe is read from the cache while its bytes are unchanged', async () => {
  const text = recipe('cached');
  const fresh = await load('cached', text);
  // What the cache holds for these bytes is what loadRecipe answers: planted values prove the hit.
  const cache = ValidatedCache.open(paths.cacheDir);
  assert.deepEqual(cache.get('recipe', text), JSON.parse(JSON.stringify(fresh)));
  cache.put('recipe', text, { ...fresh, planted: true });
  await cache.save();
  assert.equal((await load('cached', text)).planted, true);
  // One byte more and the file is read and checked again.
  assert.equal((await load('cached', `${text}# edited\n`)).planted, undefined);
  // Another kind never finds a recipe's entry.
  assert.equal(ValidatedCache.open(paths.cacheDir).get('config', text), undefined);
});

void test('an invalid recipe and a script recipe are never cached', async () => {
  await assert.rejects(load('broken', 'name: broken\nstrategy:\n  strategy: nope\n'));
  const script = await h.writeRecipe(
    'scripted',
    'name: scripted\nstrategy:\n  strategy: script\n  script_path: ./resolve.sh\n',
    'flat',
  );
  await writeFile(join(h.appsDir, 'resolve.sh'), '#!/bin/sh\necho https://example.org/a.AppImage 1\n');
  const cache = ValidatedCache.open(paths.cacheDir);
  await loadRecipe({ id: 'scripted', file: script, dir: h.appsDir, layout: 'flat' }, {}, cache).catch(
    () => undefined,
  );
  assert.equal(cache.get('recipe', await readFile(script, 'utf8')), undefined);
  assert.equal(cache.get('recipe', 'name: broken\nstrategy:\n  strategy: nope\n'), undefined);
});

void test('a damaged cache, one of another version or a huge one is ignored and then rewritten', async () => {
  const text = recipe('damaged');
  await load('damaged', text);
  const good = await readFile(cacheFile(), 'utf8');
  const [header = '', body = ''] = good.split('\n');
  const variants = [
    `${header}\n${body.replace('damaged', 'damagex')}`,
    `${header.replace(/"tool":"[^"]*"/, '"tool":"0.0.0-other"')}\n${body}`,
    good.slice(0, good.length - 5),
    'not json at all',
    `${header}\n${' '.repeat(17 << 20)}`,
  ];
  for (const variant of variants) {
    await writeFile(cacheFile(), variant);
    assert.equal(ValidatedCache.open(paths.cacheDir).get('recipe', text), undefined, variant.slice(0, 80));
    await load('damaged', text);
    assert.ok(ValidatedCache.open(paths.cacheDir).get('recipe', text), 'rewritten');
  }
});

void test('the cache keeps at most MAX_CACHE_ENTRIES, those of this run first', async () => {
  const cache = ValidatedCache.open(paths.cacheDir);
  for (let i = 0; i <= MAX_CACHE_ENTRIES; i++) cache.put('recipe', `name: a${i}\n`, { name: `a${i}` });
  await cache.save();
  const again = ValidatedCache.open(paths.cacheDir);
  assert.ok(again.get('recipe', 'name: a0\n'));
  const text = await readFile(cacheFile(), 'utf8');
  assert.equal(
    Object.keys(JSON.parse(text.slice(text.indexOf('\n') + 1)) as object).length,
    MAX_CACHE_ENTRIES,
  );
});

void test('no secret is written: tokens and proxy credentials are read back from the file', async () => {
  const token = 'ghp_secretvalue1234567890';
  await h.writeConfig(`hub_token: ${token}\nhttps_proxy: "http://user:pa55word@proxy.example:3128"\n`);
  await writeFile(paths.secretsFile, `github_token:   ${token}x  # the token\n`, { mode: 0o600 });
  const cache = ValidatedCache.open(paths.cacheDir);
  const cold = [await loadConfig(paths, cache), await loadSecrets(paths, cache)];
  await cache.save();
  const stored = await readFile(cacheFile(), 'utf8');
  assert.doesNotMatch(stored, /secretvalue|pa55word/);
  const warm = ValidatedCache.open(paths.cacheDir);
  assert.ok(warm.get('config', await readFile(paths.configFile, 'utf8')), 'config.yml was cached');
  assert.deepEqual([await loadConfig(paths, warm), await loadSecrets(paths, warm)], cold);
  assert.equal(cold[1] && 'hubToken' in cold[1] ? cold[1].hubToken : undefined, `${token}x`);
  await writeFile(paths.configFile, '');
  await writeFile(paths.secretsFile, '');
});

void test('a lock file is cached like a recipe', async () => {
  const lock = join(h.root, 'cached.lock');
  const text = `lock_version: 1\napps:\n  alpha:\n    source: https://github.com/o/alpha\n    version: "1"\n    identity: v1\n    asset: a.AppImage\n    url: https://github.com/o/a\n    sha256: "${'1'.repeat(64)}"\n`;
  await writeFile(lock, text);
  const fresh = await readLockFile(lock, paths.cacheDir);
  assert.deepEqual(ValidatedCache.open(paths.cacheDir).get('lock', text), { lock_version: 1, ...fresh });
  assert.deepEqual(await readLockFile(lock, paths.cacheDir), fresh);
});

void test('the cache file is replaced, never written through a link', async () => {
  const target = join(h.root, 'elsewhere.json');
  await writeFile(target, 'untouched');
  await writeFile(cacheFile(), '');
  await (await import('node:fs/promises')).rm(cacheFile());
  await symlink(target, cacheFile());
  await load('linked', recipe('linked'));
  assert.equal(await readFile(target, 'utf8'), 'untouched');
  assert.equal((await lstat(cacheFile())).isFile(), true);
});

void test('a workspace load fills the cache once and reads it after', async () => {
  await h.writeRecipe('wsone', recipe('wsone'));
  await loadWorkspace(paths, h.env);
  const names = await readdir(paths.cacheDir);
  assert.ok(names.includes(VALIDATED_CACHE_FILE), names.join(' '));
  const before = await readFile(cacheFile(), 'utf8');
  const ws = await loadWorkspace(paths, h.env);
  assert.ok(ws.apps.some((a) => a.name === 'wsone' && a.ok));
  assert.equal(await readFile(cacheFile(), 'utf8'), before, 'nothing new: not written again');
});

void test('search reads config.yml through the cache too (it loads no recipes)', async () => {
  const text = 'keep_previous: true\n';
  await h.writeConfig(text);
  const r = await runInProcess(['search', '--names'], { env: h.env });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(ValidatedCache.open(paths.cacheDir).get('config', text), 'config.yml not cached by search');
  await h.writeConfig('');
});
