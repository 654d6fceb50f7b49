// Node's compile cache (module.enableCompileCache, Node 22.1+) is turned on by the entry points
// in our own cache folder, never the shared temp folder; Node 20 has none and runs without it.
import assert from 'node:assert/strict';
import * as nodeModule from 'node:module';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { compileCacheDir } from '../../src/entry/compile-cache.js';
import { runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

void test('the compile cache lives in our cache folder, by XDG_CACHE_HOME when it is absolute', () => {
  assert.equal(
    compileCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: '/c' }),
    '/c/appimage-keeper/node-compile-cache',
  );
  assert.equal(
    compileCacheDir({ HOME: '/home/u', XDG_CACHE_HOME: 'relative' }),
    '/home/u/.cache/appimage-keeper/node-compile-cache',
  );
});

const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

void test(
  'a command fills the compile cache where the runtime has one',
  { skip: hasCache ? false : `node ${process.version} has no module.enableCompileCache` },
  async () => {
    await h.writeRecipe(
      'alpha',
      'name: alpha\nstrategy:\n  strategy: forge\n  repository: https://github.com/o/alpha\n',
    );
    const r = await runCli(['list'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    const dir = compileCacheDir(h.env);
    assert.ok((await readdir(dir, { recursive: true })).length > 0, `nothing in ${dir}`);
    assert.ok(dir.startsWith(join(h.root)), dir);
  },
);
