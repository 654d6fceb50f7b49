// config.yml, secrets.yml and recipes are read whole before parsing: a file that is not a regular
// file (a FIFO would block the read forever) or is far too large to be a recipe is refused with a
// positioned error instead.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readYamlFile, MAX_YAML_BYTES } from '../../src/config/yaml-file.js';
import { ConfigError } from '../../src/core/errors.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

async function issuesOf(fn: () => Promise<unknown>): Promise<string[]> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    return err.issues.map((i) => `${i.line}:${i.col} ${i.message}`);
  }
  return assert.fail('no error');
}

void test('a recipe larger than the bound is refused at line 1, and one at the bound is read', async () => {
  const big = await h.writeRecipe('big', `name: big\n# ${'x'.repeat(MAX_YAML_BYTES)}\n`);
  assert.deepEqual(await issuesOf(() => readYamlFile(big)), [
    `1:1 larger than ${MAX_YAML_BYTES >> 10} KiB; this is not a recipe or config file`,
  ]);
  const head = 'name: fits\n# ';
  const fits = await h.writeRecipe('fits', `${head}${'x'.repeat(MAX_YAML_BYTES - head.length - 1)}\n`);
  assert.deepEqual((await readYamlFile(fits)).data, { name: 'fits' });
  await rm(big);
  await rm(fits);
});

void test('a missing file keeps its ENOENT code (an absent config.yml means the defaults)', async () => {
  await assert.rejects(() => readYamlFile(join(h.configDir, 'nope.yml')), { code: 'ENOENT' });
});

void test('a FIFO as config.yml fails validate at once with exit 2 instead of hanging', async () => {
  await mkdir(h.configDir, { recursive: true });
  const fifo = join(h.configDir, 'config.yml');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  try {
    assert.deepEqual(await issuesOf(() => readYamlFile(fifo)), ['1:1 not a regular file']);
    const r = await runInProcess(['validate'], { env: h.env, timeoutMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /config\.yml:1:1.*not a regular file/);
  } finally {
    await rm(fifo);
  }
});
