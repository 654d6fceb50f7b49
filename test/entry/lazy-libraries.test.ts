/**
 * Commands load only what they use (docs/decisions.md, "Start-up"): `list` and `validate` over
 * plain recipes and the starter config.yml, with no state yet, load neither zod nor the YAML library; a recipe the plain path
 * cannot take loads them, and still validates. The loaded modules are recorded by a loader hook in
 * the CLI's own process, and each loaded chunk is searched for the libraries' bundled sources.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { CLI_PATH } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { starterConfig } from '../../src/config/templates.js';

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
  // The config.yml `init --global` writes: every field, most of them empty.
  await h.writeConfig(starterConfig());
  for (const name of ['alpha', 'beta', 'gamma'])
    await h.writeRecipe(
      name,
      `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/${name}\n  asset_match: "${name}-*.AppImage"\n`,
    );
});
after(async () => {
  await h.cleanup();
});

// The files of the CLI's bundle the command loaded.
async function loadedChunks(args: string[]): Promise<{ status: number | null; files: string[] }> {
  const log = join(h.root, `loaded-${args.join('-')}.txt`);
  const hook = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
      return next(url, context);
    }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI_PATH, ...args],
    { env: h.env, encoding: 'utf8' },
  );
  const text = await readFile(log, 'utf8').catch(() => '');
  return {
    status: r.status,
    files: text
      .split('\n')
      .filter(Boolean)
      .map((u) => new URL(u).pathname),
  };
}

async function bundles(files: string[], library: string): Promise<boolean> {
  // esbuild heads each bundled file with its path: `// node_modules/zod/...` (or, where node_modules
  // is a link, `// ../../main/node_modules/zod/...`).
  const marker = new RegExp(`^// (?:\\S*/)?node_modules/${library}/`, 'm');
  for (const file of files) if (marker.test(await readFile(file, 'utf8'))) return true;
  return false;
}

void test('list and validate over plain recipes and the starter config.yml load neither zod nor the YAML library', async () => {
  for (const command of ['list', 'validate']) {
    const { status, files } = await loadedChunks([command]);
    assert.equal(status, 0, command);
    assert.ok(files.length > 3, `${command} loaded ${files.length} files`);
    assert.equal(await bundles(files, 'zod'), false, `${command} loaded zod`);
    assert.equal(await bundles(files, 'yaml'), false, `${command} loaded the YAML library`);
  }
});

void test('a recipe outside the plain path loads the schema, and is still checked by it', async () => {
  await h.writeRecipe(
    'delta',
    'name: delta\nstrategy:\n  strategy: direct\n  url: https://example.org/delta.AppImage\n  check_method: etag\n',
  );
  await h.writeRecipe('broken', 'name: broken\nstrategy:\n  strategy: forge\n  repository: not-a-url\n');
  const { status, files } = await loadedChunks(['validate']);
  assert.notEqual(status, 0);
  assert.equal(await bundles(files, 'zod'), true);
  assert.ok(pathToFileURL(CLI_PATH).href.length > 0);
});
