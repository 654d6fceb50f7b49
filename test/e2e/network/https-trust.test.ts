/**
 * Certificates as users have them: the simulator serves HTTPS with a CA of the test's own, known
 * to neither node's bundle nor the system store. `update` trusts it through SSL_CERT_FILE or
 * config.yml `ca_file`, and without either fails with one line naming the host and the fix.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import { disposeFixtureAppImages } from '../../helpers/fixture-appimages.js';
import { runCli } from '../../helpers/run-cli.js';
import { makeTestCa, type TestCa } from '../../helpers/test-ca.js';
import { startTinyproxy } from '../../helpers/tinyproxy.js';
import { makeWorld, publish, type World } from '../update/harness.js';

void describe('update over HTTPS with a private CA', () => {
  let ca: TestCa;
  let sim: Sim;
  const worlds: World[] = [];
  before(async () => {
    ca = makeTestCa();
    sim = await startSim({ tls: { key: ca.key, cert: ca.cert } });
  });
  after(async () => {
    await Promise.all(worlds.map((w) => w.cleanup()));
    await sim.stop();
    ca.dispose();
    await disposeFixtureAppImages();
  });
  const world = async (extra = ''): Promise<World> => {
    const w = await makeWorld(sim, extra);
    worlds.push(w);
    return w;
  };

  void test('without the CA: one line naming the host and the fix, nothing installed', async () => {
    assert.match(sim.url, /^https:\/\//);
    const w = await world();
    await w.forgeRecipe('tls-none');
    await publish(sim, 'tls-none', '1.0.0');
    const run = await w.update();
    assert.equal(run.code, 1, run.stderr);
    const app = run.json?.apps[0];
    assert.equal(app?.status, 'failed');
    assert.equal(app?.error?.code, 'HTTP_CERTIFICATE');
    const host = new URL(sim.url).host;
    assert.ok(app?.error?.message.includes(`the certificate of ${host} is not trusted`), app?.error?.message);
    assert.match(app?.error?.message ?? '', /ca_file.*SSL_CERT_FILE.*system store/);
    const human = await w.cli(['update']);
    assert.equal(human.code, 1);
    const text = human.stdout + human.stderr;
    // The cause is said once: not as the message, then a code, then the same text again.
    assert.equal(text.split('unable to verify the first certificate').length - 1, 1, text);
    assert.doesNotMatch(text, /TRANSPORT_CLOSED/);
  });

  void test('SSL_CERT_FILE names the CA: the update goes through', async () => {
    const w = await world();
    await w.forgeRecipe('tls-env');
    await publish(sim, 'tls-env', '1.0.0');
    const run = await runCli(['--json', 'update'], { env: { ...w.env, SSL_CERT_FILE: ca.caFile } });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal((run.json as { apps: { status: string }[] }).apps[0]?.status, 'updated');
  });

  void test('SSL_CERT_FILE and ca_file hold inside a proxy tunnel too', async () => {
    const proxy = await startTinyproxy();
    try {
      const w = await world();
      await w.forgeRecipe('tls-proxied');
      await publish(sim, 'tls-proxied', '1.0.0');
      const env = { ...w.env, SSL_CERT_FILE: ca.caFile, https_proxy: proxy.url };
      const run = await runCli(['--json', 'update'], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal((run.json as { apps: { status: string }[] }).apps[0]?.status, 'updated');
      const viaConfig = await world(`ca_file: ${ca.caFile}`);
      await viaConfig.forgeRecipe('tls-proxied2');
      await publish(sim, 'tls-proxied2', '1.0.0');
      const byConfig = await runCli(['--json', 'update'], {
        env: { ...viaConfig.env, https_proxy: proxy.url },
      });
      assert.equal(byConfig.code, 0, byConfig.stdout + byConfig.stderr);
      const { connects, gets } = await proxy.requests();
      assert.ok(connects.length >= 2 && connects.every((c) => c === new URL(sim.url).host), connects.join());
      assert.deepEqual(gets, [], 'nothing but tunnels');
    } finally {
      await proxy.stop();
    }
  });

  void test('config.yml ca_file names the CA: the update goes through', async () => {
    const w = await world(`ca_file: ${ca.caFile}`);
    await w.forgeRecipe('tls-config');
    await publish(sim, 'tls-config', '1.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.json?.apps[0]?.status, 'updated');
  });
});
