// Updates through a real forward proxy (Debian's tinyproxy): plain http in absolute form, https
// through CONNECT to a name only the proxy can resolve, NO_PROXY, config.yml over the
// environment, Basic proxy auth and its 407, and the hub token kept out of what a proxy reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appOf } from '../../helpers/json-output.js';
import { runCli } from '../../helpers/run-cli.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { startTinyproxy, type Tinyproxy } from '../../helpers/tinyproxy.js';
import { forgeTestHosts, publish, publishAtOrigin, useUpdateSuite, type World } from './harness.js';
import { startTlsFront } from '../../helpers/tls-front.js';

const SECRET = 'hub-secret-token-123';
const PROXY_PASSWORD = 'pr0xy-pa55';

function sawToken(suiteRequests: { headers: Record<string, unknown> }[]): boolean {
  return suiteRequests.some((r) => JSON.stringify(r.headers).includes(SECRET));
}

async function update(w: World, env: NodeJS.ProcessEnv, extra: string[] = []) {
  return runCli<UpdateJson>(['--json', ...extra, 'update'], { env: { ...w.env, ...env } });
}

void describe('update through a proxy', () => {
  const suite = useUpdateSuite();
  let proxy: Tinyproxy;
  let authProxy: Tinyproxy;

  before(async () => {
    proxy = await startTinyproxy();
    authProxy = await startTinyproxy({ auth: { user: 'keeper', password: PROXY_PASSWORD } });
  });
  after(async () => {
    await proxy.stop();
    await authProxy.stop();
  });

  void test('http_proxy carries API and download in absolute form; the token never goes through it', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('px-app');
    await publish(suite.sim, 'px-app', '1.0.0');
    suite.sim.requests.length = 0;
    const seen = (await proxy.requests()).gets.length;
    const res = await update(w, { http_proxy: proxy.url, HUB_TOKEN: SECRET });
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.equal(appOf(res, 'px-app')?.status, 'updated');
    const gets = (await proxy.requests()).gets.slice(seen);
    const sim = new URL(suite.sim.url);
    assert.ok(
      gets.some(
        (g) => g.startsWith(`GET http://${sim.host}/`) && g.includes('/e2e/px-app/releases/download/'),
      ),
      `the download went through the proxy: ${gets.join('\n')}`,
    );
    assert.ok(
      gets.some((g) => g.includes('/releases/latest')),
      'the API call went through the proxy',
    );
    assert.equal(gets.length, suite.sim.requests.length, 'every request the sim saw came through the proxy');
    assert.equal(
      sawToken(suite.sim.requests),
      false,
      'no plain-http request through the proxy carries the token',
    );

    // Without a proxy the same token does reach the sim: the rule above is the proxy's.
    await publish(suite.sim, 'px-app', '1.0.1');
    suite.sim.requests.length = 0;
    const direct = await update(w, { HUB_TOKEN: SECRET });
    assert.equal(direct.code, 0, direct.stderr);
    assert.equal(sawToken(suite.sim.requests), true);
  });

  void test('NO_PROXY bypasses the proxy; config.yml fields win over the environment', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('np-app');
    await publish(suite.sim, 'np-app', '1.0.0');
    const seen = (await proxy.requests()).gets.length;
    const bypass = await update(w, { http_proxy: proxy.url, NO_PROXY: '127.0.0.0/8' });
    assert.equal(bypass.code, 0, bypass.stderr);
    assert.equal((await proxy.requests()).gets.length, seen, 'nothing went through the proxy');

    // config.yml's http_proxy and no_proxy beat a dead proxy and a bypass in the environment.
    const config = readFileSync(join(w.home.configDir, 'config.yml'), 'utf8');
    await w.home.writeConfig(`${config}http_proxy: ${proxy.url}\nno_proxy: other.example\n`);
    await publish(suite.sim, 'np-app', '1.0.1');
    const viaConfig = await update(w, { http_proxy: 'http://127.0.0.1:1', no_proxy: '127.0.0.1' });
    assert.equal(viaConfig.code, 0, viaConfig.stdout + viaConfig.stderr);
    assert.ok((await proxy.requests()).gets.length > seen, 'config.yml sent the run through the proxy');
  });

  void test('proxy credentials from the URL; a refusal is PROXY_AUTH_REQUIRED and no output shows the password', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('pa-app');
    await publish(suite.sim, 'pa-app', '1.0.0');
    const good = `http://keeper:${PROXY_PASSWORD}@127.0.0.1:${authProxy.port}`;
    const ok = await update(w, { http_proxy: good });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(appOf(ok, 'pa-app')?.status, 'updated');

    await publish(suite.sim, 'pa-app', '1.0.1');
    // tinyproxy answers a missing password with 407 (a wrong one gets a 401, see the https test).
    for (const url of [authProxy.url]) {
      const refused = await update(w, { http_proxy: url }, ['-v']);
      assert.equal(refused.code, 1);
      const app = appOf(refused, 'pa-app');
      assert.equal(app?.error?.code, 'PROXY_AUTH_REQUIRED', refused.stdout);
      assert.match(app?.error?.message ?? '', /407/);
      const human = await runCli(['-v', 'update'], { env: { ...w.env, http_proxy: url } });
      assert.match(human.stdout + human.stderr, /PROXY_AUTH_REQUIRED|407/);
      for (const text of [refused.stdout, refused.stderr, human.stdout, human.stderr]) {
        assert.doesNotMatch(text, new RegExp(PROXY_PASSWORD));
      }
    }
    const state = readFileSync(join(w.home.stateDir, 'state.json'), 'utf8');
    assert.doesNotMatch(state, new RegExp(PROXY_PASSWORD));
  });

  void test('https through CONNECT to a name only the proxy resolves, tunnels kept alive', async (t) => {
    const hosts = forgeTestHosts();
    if (hosts.skip) {
      hosts.dispose();
      t.skip(hosts.skip);
      return;
    }
    const forgeProxy = await startTinyproxy({ wrap: hosts.wrap });
    // TLS in front of the sim: forge.test speaks https, only through the proxy's CONNECT.
    const front = await startTlsFront(Number(new URL(suite.sim.url).port), 'forge.test');
    const origin = front.origin;
    try {
      const w = await suite.world('manage_desktop_files: false');
      await publishAtOrigin(suite.sim, w, origin, 'tls-app');
      suite.sim.requests.length = 0;
      const env = {
        https_proxy: forgeProxy.url,
        NODE_EXTRA_CA_CERTS: front.certFile,
        HUB_TOKEN: SECRET,
      };
      const res = await update(w, env);
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.equal(appOf(res, 'tls-app')?.status, 'updated');
      const { connects, gets } = await forgeProxy.requests();
      assert.ok(
        connects.length >= 1 && connects.every((c) => c === new URL(origin).host),
        connects.join(','),
      );
      assert.equal(gets.length, 0, 'nothing but tunnels went through the proxy');
      // Inside the tunnel the token is sent (the proxy cannot read it) and requests share tunnels.
      assert.equal(sawToken(suite.sim.requests), true);
      assert.ok(
        connects.length < suite.sim.requests.length,
        `${connects.length} tunnels for ${suite.sim.requests.length} requests`,
      );
      t.diagnostic(`tunnels ${connects.length} for ${suite.sim.requests.length} requests`);

      // A wrong proxy password: the CONNECT is refused, PROXY_AUTH_REQUIRED, the password unshown.
      const wrong = `http://keeper:wrong-${PROXY_PASSWORD}@127.0.0.1:${authProxy.port}`;
      const refused = await update(w, { ...env, https_proxy: wrong }, ['-v']);
      const app = appOf(refused, 'tls-app');
      assert.equal(app?.error?.code, 'PROXY_AUTH_REQUIRED', refused.stdout);
      assert.doesNotMatch(refused.stdout + refused.stderr, new RegExp(PROXY_PASSWORD));
      assert.match(refused.stdout, /keeper:\*\*\*@127\.0\.0\.1/);

      // Without the proxy the name does not resolve at all.
      await publish(suite.sim, 'tls-app', '1.0.1');
      suite.sim.hub.setLatest('e2e', 'tls-app', {
        tag: '1.0.1',
        assets: [
          {
            name: 'tls-app-1.0.1-x86_64.AppImage',
            url: `${origin}/e2e/tls-app/releases/download/1.0.1/tls-app-1.0.1-x86_64.AppImage`,
          },
        ],
      });
      // (Where no DNS server answers at all, that run is offline: exit 75, docs/network.md.)
      const direct = await update(w, { NODE_EXTRA_CA_CERTS: front.certFile });
      if (direct.code === 75) assert.equal(appOf(direct, 'tls-app')?.status, 'offline');
      else {
        assert.equal(direct.code, 1);
        assert.match(direct.stdout, /ENOTFOUND|EAI_AGAIN|forge\.test/);
      }
    } finally {
      await front.stop();
      await forgeProxy.stop();
      hosts.dispose();
    }
  });
});
