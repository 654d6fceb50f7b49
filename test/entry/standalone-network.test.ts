/**
 * The standalone executable on the network as the npm build is (issue 20): built once here, run
 * with no node on PATH against an HTTPS sim whose CA is the test's own. It fails with the one-line
 * certificate error without SSL_CERT_FILE, goes through with it, and with HTTPS_PROXY its requests
 * travel through a real tinyproxy as CONNECT tunnels, with nothing printed on stderr.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../sim/index.js';
import { buildStandalone } from '../../scripts/build-standalone.js';
import { disposeFixtureAppImages } from '../helpers/fixture-appimages.js';
import { runCli } from '../helpers/run-cli.js';
import { makeTestCa, type TestCa } from '../helpers/test-ca.js';
import { startTinyproxy, type Tinyproxy } from '../helpers/tinyproxy.js';
import type { UpdateJson } from '../helpers/update-json.js';
import { makeWorld, publish, type World } from '../e2e/update/harness.js';

void describe('standalone executable: proxy and certificates', () => {
  let out = '';
  let exe = '';
  let noNode = '';
  let ca: TestCa;
  let sim: Sim;
  let proxy: Tinyproxy;
  const worlds: World[] = [];

  before(async () => {
    out = await mkdtemp(join(tmpdir(), 'ak-standalone-net-'));
    ({ file: exe } = await buildStandalone(out));
    noNode = join(out, 'path-without-node');
    await mkdir(noNode);
    ca = makeTestCa();
    sim = await startSim({ tls: { key: ca.key, cert: ca.cert } });
    proxy = await startTinyproxy();
  });
  after(async () => {
    await Promise.all(worlds.map((w) => w.cleanup()));
    await proxy?.stop();
    await sim?.stop();
    ca?.dispose();
    await disposeFixtureAppImages();
    await rm(out, { recursive: true, force: true });
  });

  /** A world with `app` 1.0.0 published on the HTTPS sim, and the executable's runner. */
  async function world(app: string) {
    const w = await makeWorld(sim);
    worlds.push(w);
    await w.forgeRecipe(app);
    await publish(sim, app, '1.0.0');
    // --quiet as the timer runs it: what is left on stderr then is a warning nobody asked for.
    return (env: NodeJS.ProcessEnv, build: 'standalone' | 'npm' = 'standalone') =>
      build === 'standalone'
        ? runCli<UpdateJson>(['--json', '--quiet', 'update'], {
            program: exe,
            env: { ...w.env, PATH: noNode, ...env },
          })
        : runCli<UpdateJson>(['--json', '--quiet', 'update'], { env: { ...w.env, ...env } });
  }

  void test('without SSL_CERT_FILE: the one-line certificate error; with it: the update goes through', async () => {
    assert.match(sim.url, /^https:\/\//);
    const update = await world('sa-tls');
    const refused = await update({});
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    const error = refused.json?.apps[0]?.error;
    assert.equal(error?.code, 'HTTP_CERTIFICATE', refused.stdout);
    assert.match(error?.message ?? '', /is not trusted.*ca_file.*SSL_CERT_FILE/);

    const trusted = await update({ SSL_CERT_FILE: ca.caFile });
    assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
    assert.equal(trusted.json?.apps[0]?.status, 'updated');
  });

  void test('HTTPS_PROXY: every request goes through tinyproxy as a CONNECT tunnel, as with the npm build', async () => {
    let update: Awaited<ReturnType<typeof world>> | undefined;
    for (const build of ['npm', 'standalone'] as const) {
      update = await world(`sa-proxy-${build}`);
      const seen = await proxy.requests();
      const res = await update({ SSL_CERT_FILE: ca.caFile, HTTPS_PROXY: proxy.url }, build);
      assert.equal(res.code, 0, `${build}: ${res.stdout}${res.stderr}`);
      assert.equal(res.json?.apps[0]?.status, 'updated');
      // Node's "require() ... only supports loading built-in modules" warning, for one (issue 30).
      assert.equal(res.stderr, '', `${build}: nothing on stderr`);
      const now = await proxy.requests();
      const connects = now.connects.slice(seen.connects.length);
      assert.ok(connects.length >= 1, `${build}: tunnels were opened`);
      assert.ok(
        connects.every((c) => c === new URL(sim.url).host),
        connects.join(','),
      );
      assert.equal(now.gets.length, seen.gets.length, 'nothing but tunnels');
    }
    assert.ok(update);

    // A proxy that is not there is no path out: the run is offline (exit 75), and the executable
    // never falls back to a direct line.
    const dead = await update({ SSL_CERT_FILE: ca.caFile, HTTPS_PROXY: 'http://127.0.0.1:1' });
    assert.equal(dead.code, 75, dead.stdout + dead.stderr);
    assert.equal(dead.json?.apps[0]?.status, 'offline');
  });
});
