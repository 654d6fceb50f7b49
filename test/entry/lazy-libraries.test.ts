/**
 * Commands load only what they use (docs/decisions.md, "Start-up"): `list` and `validate` over
 * recipes and a config.yml validated before (the validated cache), with state this tool wrote,
 * load neither zod nor the YAML library; a file not in the cache loads them, and is checked. The
 * loaded modules are recorded by a loader hook in the CLI's own process (test/helpers/loaded-modules.ts).
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { bundlesLibrary, runRecordingLoads } from '../helpers/loaded-modules.js';
import { installedRecord, writeStateFile } from '../helpers/state-file.js';
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

// The files of the CLI's bundle a command loaded.
async function loadedChunks(args: string[]): Promise<{ status: number | null; files: string[] }> {
  const r = await runRecordingLoads(args, h.env, h.root);
  return { status: r.code, files: r.files };
}

void test('list and validate over cached recipes and config.yml load neither zod nor the YAML library', async () => {
  const cold = await loadedChunks(['validate']);
  assert.equal(cold.status, 0);
  assert.equal(await bundlesLibrary(cold.files, 'zod'), true, 'the first run validates with zod');
  for (const command of ['list', 'validate']) {
    const { status, files } = await loadedChunks([command]);
    assert.equal(status, 0, command);
    assert.equal(await bundlesLibrary(files, 'zod'), false, `${command} loaded zod`);
    assert.equal(await bundlesLibrary(files, 'yaml'), false, `${command} loaded the YAML library`);
    // Nothing of the network stack, SquashFS or the other commands' use cases.
    for (const lib of ['http-proxy-agent', 're2js'])
      assert.equal(await bundlesLibrary(files, lib), false, `${command} loaded ${lib}`);
  }
});

void test('a recipe not in the cache loads the schema, and is checked by it', async () => {
  await h.writeRecipe(
    'delta',
    'name: delta\nstrategy:\n  strategy: direct\n  url: https://example.org/delta.AppImage\n  check_method: etag\n',
  );
  await h.writeRecipe('broken', 'name: broken\nstrategy:\n  strategy: forge\n  repository: not-a-url\n');
  const { status, files } = await loadedChunks(['validate']);
  assert.notEqual(status, 0);
  assert.equal(await bundlesLibrary(files, 'zod'), true);
  assert.ok(
    files.every((f) => f.endsWith('/dist/appimage-keeper.cjs') || f.includes('/dist/chunks/')),
    files.join('\n'),
  );
});

void test('list over state this tool wrote loads no zod; state edited by hand is checked, and a damaged entry set aside', async () => {
  // A home of its own: the tests above leave recipes that need the schema.
  const h = await makeTmpHome();
  await h.writeRecipe(
    'alpha',
    'name: alpha\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/alpha\n',
  );
  const file = join(h.root, 'alpha.AppImage');
  await writeFile(file, 'x');
  const entry = { strategy: 'forge', installed: installedRecord(file) };
  await writeStateFile(h.stateDir, { alpha: { ...entry, hold: true } });
  const byHand = await runRecordingLoads(['list'], h.env, h.root);
  assert.equal(byHand.code, 0, byHand.stderr);
  assert.equal(await bundlesLibrary(byHand.files, 'zod'), true, 'state written by hand is checked');
  // unhold saves state.json, with its digest.
  assert.equal((await runRecordingLoads(['unhold', 'alpha'], h.env, h.root)).code, 0);
  const sound = await runRecordingLoads(['list'], h.env, h.root);
  assert.equal(sound.code, 0, sound.stderr);
  assert.match(sound.stdout, /^alpha +forge +1\.2 /m);
  assert.equal(await bundlesLibrary(sound.files, 'zod'), false);
  await writeStateFile(h.stateDir, {
    alpha: entry,
    beta: { ...entry, installed: installedRecord('relative') },
  });
  const damaged = await runRecordingLoads(['list'], h.env, h.root);
  assert.equal(damaged.code, 0, damaged.stderr);
  assert.equal(await bundlesLibrary(damaged.files, 'zod'), true);
  assert.match(
    damaged.stderr,
    /app "beta": installed\.file: must be an absolute path; its entry was set aside/,
  );
  await h.cleanup();
});
