// Updates through a real SOCKS5 server (Debian's microsocks): `all_proxy=socks5h://…` reaches the
// sim under a name only the proxy resolves (microsocks runs with its own /etc/hosts in a private
// mount namespace, so a direct connection cannot even find the host), with user/password
// authentication, and a wrong password is one clear error, never a direct connection.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appOf } from '../../helpers/json-output.js';
import { startMicrosocks, type Microsocks } from '../../helpers/microsocks.js';
import { runCli } from '../../helpers/run-cli.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { forgeTestHosts, publish, publishAtOrigin, useUpdateSuite, type World } from './harness.js';

const USER = 'keeper';
const PASSWORD = 's0cks-pa55';

/** microsocks runs where `forge.test` resolves to the loopback (and nowhere else). */
const hosts = forgeTestHosts();
const skip = hosts.skip;
const withForgeTest = hosts.wrap;

void describe('update through a SOCKS5 proxy', { skip }, () => {
  const suite = useUpdateSuite();
  let open: Microsocks;
  let authed: Microsocks;
  let origin = '';

  before(async () => {
    open = await startMicrosocks({ wrap: withForgeTest });
    authed = await startMicrosocks({ wrap: withForgeTest, auth: { user: USER, password: PASSWORD } });
    origin = `http://forge.test:${new URL(suite.sim.url).port}`;
  });
  after(async () => {
    await open?.stop();
    await authed?.stop();
    hosts.dispose();
  });

  /** A world whose hub and recipe name the sim as forge.test, with `app` 1.0.0 published there. */
  async function forgeTestWorld(app: string): Promise<World> {
    const w = await suite.world('manage_desktop_files: false');
    await publishAtOrigin(suite.sim, w, origin, app);
    return w;
  }

  const update = (w: World, env: NodeJS.ProcessEnv, extra: string[] = []) =>
    runCli<UpdateJson>(['--json', ...extra, 'update'], { env: { ...w.env, ...env } });

  void test('socks5h: the proxy resolves a name we cannot, API and download both go through it', async () => {
    const w = await forgeTestWorld('sx-app');
    // Without the proxy the name does not resolve: whatever reaches the sim came through microsocks.
    // (Where no DNS server answers at all, that run is offline: exit 75, docs/network.md.)
    const direct = await update(w, {});
    if (direct.code === 75) assert.equal(appOf(direct, 'sx-app')?.status, 'offline');
    else {
      assert.equal(direct.code, 1, direct.stdout);
      assert.equal(appOf(direct, 'sx-app')?.error?.code, 'HTTP_NETWORK', direct.stdout);
      assert.match(direct.stdout, /forge\.test/);
    }

    suite.sim.requests.length = 0;
    const seen = open.targets().length;
    const res = await update(w, { all_proxy: `socks5h://${open.hostPort}` });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.equal(appOf(res, 'sx-app')?.status, 'updated');
    const paths = suite.sim.requests.map((r) => r.path);
    assert.ok(
      paths.some((p) => p.includes('/releases/latest')),
      paths.join('\n'),
    );
    assert.ok(
      paths.some((p) => p.includes('/e2e/sx-app/releases/download/')),
      paths.join('\n'),
    );
    const targets = open.targets().slice(seen);
    assert.ok(targets.length >= 1, open.output());
    assert.ok(
      targets.every((t) => t === `forge.test:${new URL(origin).port}`),
      `the proxy was handed the name, not an address: ${targets.join(',')}`,
    );
  });

  void test('socks5 user/password works; a wrong password is one clear error with the password hidden', async () => {
    const w = await forgeTestWorld('sa-app');
    const good = `socks5h://${USER}:${PASSWORD}@${authed.hostPort}`;
    const ok = await update(w, { all_proxy: good });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(appOf(ok, 'sa-app')?.status, 'updated');
    assert.ok(authed.targets().length >= 1, authed.output());

    await publish(suite.sim, 'sa-app', '1.0.1');
    suite.sim.hub.setLatest('e2e', 'sa-app', {
      tag: '1.0.1',
      assets: [
        {
          name: 'sa-app-1.0.1-x86_64.AppImage',
          url: `${origin}/e2e/sa-app/releases/download/1.0.1/sa-app-1.0.1-x86_64.AppImage`,
        },
      ],
    });
    const seen = authed.targets().length;
    suite.sim.requests.length = 0;
    const wrong = `socks5h://${USER}:wrong-${PASSWORD}@${authed.hostPort}`;
    for (const env of [{ all_proxy: wrong }, { https_proxy: wrong, http_proxy: wrong }]) {
      const refused = await update(w, env, ['-v']);
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      const app = appOf(refused, 'sa-app');
      assert.equal(app?.status, 'failed');
      assert.equal(app?.error?.code, 'PROXY_AUTH_REQUIRED', refused.stdout);
      assert.match(app?.error?.message ?? '', /socks5h:\/\/keeper:\*\*\*@127\.0\.0\.1/);
      const human = await runCli(['update'], { env: { ...w.env, ...env } });
      assert.equal(human.code, 1);
      assert.match(human.stdout + human.stderr, /refused forge\.test.*user name or password|authentication/s);
      for (const text of [refused.stdout, refused.stderr, human.stdout, human.stderr]) {
        assert.doesNotMatch(text, new RegExp(PASSWORD));
      }
    }
    // No credentials at all for a server that requires them: the same error, saying to add them.
    const bare = await update(w, { all_proxy: `socks5h://${authed.hostPort}` });
    assert.equal(appOf(bare, 'sa-app')?.error?.code, 'PROXY_AUTH_REQUIRED', bare.stdout);
    assert.match(appOf(bare, 'sa-app')?.error?.hint ?? '', /put the credentials in the proxy URL/);
    assert.equal(suite.sim.requests.length, 0, 'nothing reached the sim: no direct connection');
    assert.equal(authed.targets().length, seen, 'the proxy connected nowhere for a wrong password');
    const state = readFileSync(join(w.home.stateDir, 'state.json'), 'utf8');
    assert.doesNotMatch(state, new RegExp(PASSWORD));
    assert.equal((await w.state()).apps['sa-app']?.installed?.version, '1.0.0');
  });
});
