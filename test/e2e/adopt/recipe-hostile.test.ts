// What `add` and `adopt` write into recipes from hostile input, through the built CLI and the sim:
// URL credentials are refused and never printed, stored or sent; control characters from a URL, an
// AppImage's update information or AppStream never reach a recipe; an asset that no asset_match can
// select is refused by name instead of being "selected" by a pattern that never matches.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { request } from '../../../src/http/http.js';
import { createHttpSettings } from '../../../src/http/settings.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import { incoming } from './incoming.js';

const SECRET = 's3cretpass';
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

const suite = useSimSuite(
  (sim) => makeSimWorld(sim, { configLines: ['manage_desktop_files: false'] }),
  disposeFixtureAppImages,
);
after(disposeFixtureAppImages);

async function recipes(w: SimWorld): Promise<string[]> {
  return readdir(w.home.appsDir).catch(() => []);
}

void describe('recipes from hostile input', () => {
  void test('add with user:password@ in the URL: ADD_URL_CREDENTIALS, nothing requested, written or echoed', async () => {
    const w = await suite.world();
    const url = suite.sim.putAsset(
      '/files/Creds-latest-x86_64.AppImage',
      await fixtureAppImage('creds', '1.0'),
    );
    const withCreds = url.replace('http://', `http://user:${SECRET}@`);
    suite.sim.clearRequests();
    for (const args of [
      ['--json', 'add', withCreds],
      ['add', withCreds],
    ]) {
      const r = await w.run(args);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.ok(!(r.stdout + r.stderr).includes(SECRET), r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, /ADD_URL_CREDENTIALS|credentials/);
      assert.match(r.stdout + r.stderr, /secrets\.yml/);
    }
    assert.deepEqual(suite.sim.requests, []);
    assert.deepEqual(await recipes(w), []);
  });

  void test('add with ESC, BEL or LF in the URL: refused, no recipe', async () => {
    const w = await suite.world();
    const url = suite.sim.putAsset('/files/Ctl-latest-x86_64.AppImage', await fixtureAppImage('ctl', '1.0'));
    for (const c of ['\x1b[2J', '\x07', '\n']) {
      const r = await w.run(['--json', 'add', url.replace('Ctl-', `Ctl${c}-`)]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal((r.json as { error: { code: string } }).error.code, 'ADD_URL_INVALID');
      assert.ok(!CONTROL.test(r.stdout), JSON.stringify(r.stdout));
    }
    assert.deepEqual(await recipes(w), []);
  });

  void test('the HTTP layer never sends URL userinfo as Basic auth', async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const res = await request(createHttpSettings(), `http://user:${SECRET}@127.0.0.1:${port}/x`);
      assert.equal(res.status, 200);
      assert.deepEqual(seen, [undefined]);
    } finally {
      server.close();
    }
  });

  void test('adopt: ESC and BEL in update information never reach the recipe or its comment', async () => {
    const w = await suite.world();
    for (const [app, info] of [
      ['esczsync', 'zsync|https://dl.example.org/App\x1b]0;pwned\x07-x86_64.AppImage.zsync'],
      ['escgh', 'gh-releases-zsync|own\x1b[31m|repo|latest|App-*-x86_64.AppImage.zsync'],
    ] as const) {
      const body = await fixtureAppImage(app, '1.0', { updateInfo: info });
      const r = await w.run(['--json', 'adopt', await incoming(w, `${app}.AppImage`, body)]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const row = (r.json as { files: { error: { code: string } | null }[] }).files[0];
      assert.equal(row?.error?.code, 'RECIPE_VALUE_UNSAFE', r.stdout);
      assert.ok(!CONTROL.test(r.stdout), JSON.stringify(r.stdout));
    }
    assert.deepEqual(await recipes(w), []);
  });

  void test('adopt: a control character in the file name is escaped in the recipe comment', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('cmt', '1.0', {
      updateInfo: 'zsync|https://dl.example.org/Cmt-x86_64.AppImage.zsync',
    });
    const r = await w.run([
      '--json',
      'adopt',
      '--name',
      'cmt',
      await incoming(w, 'cmt\x1b[2J.AppImage', body),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const text = await readFile(join(w.home.appsDir, 'cmt', 'cmt.yml'), 'utf8');
    assert.ok(!CONTROL.test(text), JSON.stringify(text));
    assert.match(text, /cmt\\x1b\[2J\.AppImage/);
  });

  void test('add: an asset named with "/" or ".." is refused by name, never "selected" by a dead pattern', async () => {
    const w = await suite.world();
    for (const [repo, name] of [
      ['dots', '../Dots-1.0-x86_64.AppImage'],
      ['slash', 'sub/Slash-1.0-x86_64.AppImage'],
      ['esc', 'Esc\x1b[2J-1.0-x86_64.AppImage'],
    ] as const) {
      suite.sim.hub.setLatest('e2e', repo, {
        tag: 'v1.0',
        assets: [{ name, url: suite.sim.putAsset(`/dl/${repo}.AppImage`, Buffer.from('x')) }],
      });
      const r = await w.run(['--json', 'add', `${suite.sim.url}/e2e/${repo}`]);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const err = (r.json as { error: { code: string; message: string } }).error;
      assert.equal(err.code, 'ADD_ASSET_NAME_UNSAFE', r.stdout);
      assert.ok(err.message.includes(JSON.stringify(name)), err.message);
      assert.ok(!CONTROL.test(r.stdout), JSON.stringify(r.stdout));
    }
    assert.deepEqual(await recipes(w), []);
  });
});
