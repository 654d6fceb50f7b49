// Release metadata that came through a proxy cannot choose what gets installed: the asset URL must be
// the hub's own download URL for the recipe's repository, a proxy cannot downgrade an app, and the
// output says the metadata came through a proxy.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { publish, useUpdateSuite, type World } from './harness.js';

const RATE_LIMITED = { rateLimit: { kind: '403-remaining', resetInSeconds: 3600 } } as const;

void describe('update: proxied metadata cannot choose the file', () => {
  const suite = useUpdateSuite();

  /** A world where `app` v1.0.0 is installed from the hub itself, and the recipe allows the sim's proxy. */
  async function installedV1(app: string): Promise<World> {
    const w = await suite.world('manage_desktop_files: false');
    // respect_rate_limits: false, so every run asks the hub again (and meets the proxy again).
    await w.forgeRecipe(
      app,
      `hub_proxy: true\nhub_proxy_prefix: "${suite.sim.proxyPrefix()}"\nrespect_rate_limits: false`,
    );
    await publish(suite.sim, app, '1.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(appOf(run, app).status, 'updated');
    return w;
  }

  /** The hub rate-limits `app`; the proxy answers `release` for it instead of relaying the hub. */
  function proxyAnswers(app: string, release: unknown): void {
    suite.sim.fault(`/repos/e2e/${app}/releases/latest`, RATE_LIMITED);
    suite.sim.fault(new RegExp(`^/proxy/.*/repos/e2e/${app}/releases/latest`), {
      body: JSON.stringify(release),
      contentType: 'application/json',
    });
  }

  async function installedIntact(w: World, app: string, version: string): Promise<void> {
    const state = await w.state();
    const installed = state.apps[app]?.installed;
    assert.equal(installed?.version, version);
    assert.equal(sha256(await readFile(installed?.file ?? '')), installed?.sha256);
    assert.equal(await execInstalled(installed?.file ?? ''), `${app} ${version}`);
  }

  void test('a proxy answer pointing the asset elsewhere fails the app and names the proxy', async () => {
    const app = 'obsidian';
    const w = await installedV1(app);
    // Another program, served by the attacker with its own (correct) digest.
    const evil = await fixtureAppImage('evil', '9.9.9');
    const evilUrl = suite.sim.putAsset('/evil/Obsidian.AppImage', evil);
    proxyAnswers(app, {
      tag_name: 'v9.9.9',
      html_url: `${suite.sim.url}/e2e/${app}/releases/tag/v9.9.9`,
      published_at: new Date(Date.now() + 86_400_000).toISOString(),
      assets: [
        {
          name: `${app}-9.9.9-x86_64.AppImage`,
          size: evil.length,
          digest: `sha256:${sha256(evil)}`,
          browser_download_url: evilUrl,
        },
      ],
    });
    const run = await w.update();
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const a = appOf(run, app);
    assert.equal(a.status, 'failed');
    assert.equal(a.error?.code, 'PROXY_ASSET_URL');
    assert.match(a.error?.message ?? '', new RegExp(suite.sim.proxyPrefix().replace(/[/.:]/g, '\\$&')));
    assert.ok(!suite.sim.requests.some((q) => q.path === '/evil/Obsidian.AppImage'), 'nothing downloaded');
    await installedIntact(w, app, '1.0.0');
  });

  void test('a proxy cannot downgrade an app (published_at, then version order)', async () => {
    const app = 'downgraded';
    const w = await installedV1(app);
    const v2 = await publish(suite.sim, app, '2.0.0');
    const up = await w.update();
    assert.equal(appOf(up, app).status, 'updated', up.stdout);
    // The proxy replays an older, genuine release of the same repository at its genuine URL.
    const old = await fixtureAppImage(app, '1.5.0');
    const oldPath = `/e2e/${app}/releases/download/1.5.0/${app}-1.5.0-x86_64.AppImage`;
    const oldUrl = suite.sim.putAsset(oldPath, old);
    const older = {
      tag_name: '1.5.0',
      html_url: `${suite.sim.url}/e2e/${app}/releases/tag/1.5.0`,
      assets: [{ name: `${app}-1.5.0-x86_64.AppImage`, size: old.length, browser_download_url: oldUrl }],
    };
    proxyAnswers(app, { ...older, published_at: '2001-01-01T00:00:00Z' });
    const byDate = await w.update(['--force']);
    assert.equal(byDate.code, 1, byDate.stdout + byDate.stderr);
    assert.equal(appOf(byDate, app).error?.code, 'PROXY_DOWNGRADE');
    suite.sim.clearFaults();
    // Without a publication date the tags' version order decides.
    proxyAnswers(app, older);
    const byTag = await w.update(['--force']);
    assert.equal(appOf(byTag, app).error?.code, 'PROXY_DOWNGRADE', byTag.stdout);
    suite.sim.clearFaults();
    assert.ok(!suite.sim.requests.some((q) => q.path === oldPath), 'the older file was never fetched');
    assert.ok(v2.url);
    await installedIntact(w, app, '2.0.0');
  });

  void test('a genuine proxied release installs and says it came through the proxy', async () => {
    const app = 'relayed';
    const w = await installedV1(app);
    await publish(suite.sim, app, '2.0.0');
    suite.sim.fault(`/repos/e2e/${app}/releases/latest`, RATE_LIMITED);
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const a = appOf(run, app);
    assert.equal(a.status, 'updated');
    assert.equal(a.via_proxy, suite.sim.proxyPrefix());
    assert.ok(
      a.warnings.some((x) => /digest came through proxy/.test(x)),
      `a warning says the digest is not proof: ${JSON.stringify(a.warnings)}`,
    );
    suite.sim.clearFaults();
    suite.sim.fault(`/repos/e2e/${app}/releases/latest`, RATE_LIMITED);
    await publish(suite.sim, app, '3.0.0');
    const human = await w.cli(['update']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /updated\s+relayed 2\.0\.0 → 3\.0\.0.*via proxy/);
    suite.sim.clearFaults();
    await installedIntact(w, app, '3.0.0');
  });
});
