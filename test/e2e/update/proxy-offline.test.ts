// "No path out, whoever says it": a configured proxy that cannot be reached (refused, or silent)
// makes the run offline (exit 75, every app `offline`, nothing written), and a proxy that answers
// but refuses (CONNECT 403, its own 5xx) is PROXY_REFUSED naming the proxy, never the forge's status.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { appOf } from '../../helpers/json-output.js';
import { freePort } from '../../helpers/local-port.js';
import { runCli } from '../../helpers/run-cli.js';
import { startTinyproxy, type Tinyproxy } from '../../helpers/tinyproxy.js';
import { startTlsFront } from '../../helpers/tls-front.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { publish, publishAtOrigin, useUpdateSuite, type World } from './harness.js';

async function run(w: World, command: string, env: NodeJS.ProcessEnv) {
  return runCli<UpdateJson>(['--json', command], { env: { ...w.env, ...env } });
}

function stateText(w: World): string | undefined {
  const file = join(w.home.stateDir, 'state.json');
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

// Accepts connections and never says a word: a proxy whose upstream side hangs.
async function silentServer(): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

void describe('a proxy with no path out', () => {
  const suite = useUpdateSuite();
  let denying: Tinyproxy;
  let open: Tinyproxy;
  before(async () => {
    // tinyproxy refuses CONNECT to any port but 443 with 403 "Access violation".
    denying = await startTinyproxy({ extraConfig: ['ConnectPort 443'] });
    open = await startTinyproxy();
  });
  after(async () => {
    await denying.stop();
    await open.stop();
  });

  for (const command of ['update', 'check']) {
    void test(`${command}: the proxy refuses connections → offline, exit 75, nothing written`, async () => {
      const w = await suite.world('manage_desktop_files: false');
      await w.forgeRecipe('pd-app');
      await publish(suite.sim, 'pd-app', '1.0.0');
      const closed = `http://127.0.0.1:${await freePort()}`;
      const before = stateText(w);
      const r = await run(w, command, { http_proxy: closed, https_proxy: closed });
      assert.equal(r.code, 75, r.stdout + r.stderr);
      assert.equal(appOf(r, 'pd-app')?.status, 'offline', r.stdout);
      assert.equal(stateText(w), before, 'state.json is untouched');
    });
  }

  void test('a proxy that accepts and never answers CONNECT → offline after the connect timeout', async () => {
    const silent = await silentServer();
    const front = await startTlsFront(Number(new URL(suite.sim.url).port));
    try {
      const w = await suite.world('manage_desktop_files: false');
      await publishAtOrigin(suite.sim, w, front.origin, 'ps-app');
      const r = await run(w, 'update', {
        https_proxy: `http://127.0.0.1:${silent.port}`,
        NODE_EXTRA_CA_CERTS: front.certFile,
      });
      assert.equal(r.code, 75, r.stdout + r.stderr);
      assert.equal(appOf(r, 'ps-app')?.status, 'offline', r.stdout);
    } finally {
      await front.stop();
      await silent.stop();
    }
  });

  void test('CONNECT answered 403 is PROXY_REFUSED naming the proxy, not FORGE_FORBIDDEN', async () => {
    const front = await startTlsFront(Number(new URL(suite.sim.url).port));
    try {
      const w = await suite.world('manage_desktop_files: false');
      await publishAtOrigin(suite.sim, w, front.origin, 'pr-app');
      const proxy = `http://keeper:s3cret@127.0.0.1:${denying.port}`;
      const r = await run(w, 'update', { https_proxy: proxy, NODE_EXTRA_CA_CERTS: front.certFile });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const error = appOf(r, 'pr-app')?.error;
      assert.equal(error?.code, 'PROXY_REFUSED', r.stdout);
      assert.match(error?.message ?? '', new RegExp(`127\\.0\\.0\\.1:${denying.port}.*403`));
      assert.doesNotMatch(JSON.stringify(error), /token|s3cret/);
      assert.doesNotMatch(r.stdout + r.stderr, /s3cret/);
    } finally {
      await front.stop();
    }
  });

  void test("the proxy's own 5xx (upstream unreachable) is PROXY_REFUSED, not HTTP 500 from the forge", async () => {
    const w = await suite.world('manage_desktop_files: false');
    const origin = `https://localhost:${await freePort()}`;
    await publishAtOrigin(suite.sim, w, origin, 'pu-app');
    const r = await run(w, 'update', { https_proxy: open.url });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const error = appOf(r, 'pu-app')?.error;
    assert.equal(error?.code, 'PROXY_REFUSED', r.stdout);
    assert.match(error?.message ?? '', /500/);
    assert.doesNotMatch(error?.message ?? '', /from https:\/\/localhost/);
  });

  void test("plain http: tinyproxy's own error page is PROXY_REFUSED; the origin's errors stay the origin's", async () => {
    const w = await suite.world('manage_desktop_files: false');
    const closedOrigin = `http://127.0.0.1:${await freePort()}`;
    await publishAtOrigin(suite.sim, w, closedOrigin, 'ph-app');
    const r = await run(w, 'update', { http_proxy: open.url });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(appOf(r, 'ph-app')?.error?.code, 'PROXY_REFUSED', r.stdout);

    // The sim's own 404 through the same proxy is the forge's answer.
    const w2 = await suite.world('manage_desktop_files: false');
    await w2.forgeRecipe('ph-missing');
    const missing = await run(w2, 'update', { http_proxy: open.url });
    assert.notEqual(appOf(missing, 'ph-missing')?.error?.code, 'PROXY_REFUSED', missing.stdout);
  });
});
