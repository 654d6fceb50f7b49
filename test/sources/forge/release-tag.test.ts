import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSim } from '../../helpers/sim-suite.js';
import type { AppSettings, ForgeStrategy } from '../../../src/config/types.js';
import { KeeperError } from '../../../src/core/errors.js';
import { releaseGuard } from '../../../src/app/release-guards.js';
import { resolveApp } from '../../../src/sources/resolve.js';
import type { Resolution, ResolveOutcome } from '../../../src/sources/types.js';
import type { AppState } from '../../../src/state/types.js';
import { forge, makeDeps, makeSettings } from '../support.js';

function resolved(outcome: ResolveOutcome): Resolution {
  assert.equal(outcome.kind, 'resolved', JSON.stringify(outcome));
  if (outcome.kind !== 'resolved') throw new Error('unreachable');
  return outcome.resolution;
}

type Extra = Partial<Omit<ForgeStrategy, 'strategy'>>;

void describe('strategy.tag and strategy.prerelease: only on every forge', () => {
  const sim = useSim('requests', { hubApiPrefix: '/api/v3' });
  const hub = (repo: string, extra: Extra): AppSettings =>
    makeSettings(forge(`${sim.url}/${repo}`, extra), {
      hub_release_web_url: sim.url,
      hub_release_api_url: sim.hubApiUrl,
    });
  const lab = (project: string, extra: Extra): AppSettings =>
    makeSettings(forge(`${sim.url}/${project}`, extra), {
      lab_release_web_url: sim.url,
      lab_release_api_url: sim.labApiUrl,
    });
  const gitea = (repo: string, extra: Extra): AppSettings => makeSettings(forge(`${sim.url}/${repo}`, extra));

  const releases = (url: string) => [
    { tag: 'v3-rc1', prerelease: true, assets: [{ name: 'pre.AppImage', url }] },
    { tag: 'continuous', prerelease: true, assets: [{ name: 'cont.AppImage', url }] },
    { tag: 'v2', assets: [{ name: 'stable.AppImage', url }] },
  ];

  void test('hub: tag reads releases/tags/{tag}; prerelease only picks the newest pre-release', async () => {
    const url = sim.putAsset('/dl/hub.AppImage', Buffer.from('h'));
    sim.hub.setReleases('acme', 'moving', releases(url));
    const tagged = resolved(await resolveApp(hub('acme/moving', { tag: 'continuous' }), makeDeps()));
    assert.equal(tagged.version, 'continuous');
    assert.equal(tagged.assetName, 'cont.AppImage');
    assert.ok(sim.requests.some((r) => r.path === '/api/v3/repos/acme/moving/releases/tags/continuous'));
    const only = resolved(await resolveApp(hub('acme/moving', { prerelease: 'only' }), makeDeps()));
    assert.equal(only.version, 'v3-rc1');
    const stable = resolved(await resolveApp(hub('acme/moving', {}), makeDeps()));
    assert.equal(stable.version, 'v2');
  });

  void test('hub: prerelease only with no pre-release is FORGE_NO_RELEASE; a missing tag is an error', async () => {
    const url = sim.putAsset('/dl/hub2.AppImage', Buffer.from('h'));
    sim.hub.setReleases('acme', 'stableonly', [{ tag: 'v1', assets: [{ name: 'a.AppImage', url }] }]);
    await assert.rejects(
      resolveApp(hub('acme/stableonly', { prerelease: 'only' }), makeDeps()),
      (err: unknown) =>
        err instanceof KeeperError && err.code === 'FORGE_NO_RELEASE' && /pre-release/.test(err.message),
    );
    await assert.rejects(resolveApp(hub('acme/stableonly', { tag: 'nightly' }), makeDeps()), KeeperError);
  });

  void test('lab: tag reads releases/{tag}', async () => {
    const url = sim.putAsset('/dl/lab.AppImage', Buffer.from('l'));
    sim.lab.setReleases('grp/moving', releases(url));
    const tagged = resolved(await resolveApp(lab('grp/moving', { tag: 'continuous' }), makeDeps()));
    assert.equal(tagged.version, 'continuous');
    assert.equal(tagged.assetName, 'cont.AppImage');
    assert.ok(sim.requests.some((r) => r.path === '/api/v4/projects/grp%2Fmoving/releases/continuous'));
  });

  void test('gitea: tag reads releases/tags/{tag}; prerelease only picks the newest pre-release', async () => {
    const url = sim.putAsset('/dl/gitea.AppImage', Buffer.from('g'));
    sim.gitea.setFlavor('gitea');
    sim.gitea.setReleases('team', 'moving', releases(url));
    const tagged = resolved(await resolveApp(gitea('team/moving', { tag: 'continuous' }), makeDeps()));
    assert.equal(tagged.version, 'continuous');
    assert.ok(sim.requests.some((r) => r.path === '/api/v1/repos/team/moving/releases/tags/continuous'));
    const only = resolved(await resolveApp(gitea('team/moving', { prerelease: 'only' }), makeDeps()));
    assert.equal(only.version, 'v3-rc1');
  });
});

void describe('replaced-asset alarm and strategy.tag', () => {
  const resolution: Resolution = {
    version: 'build-42',
    identity: 'build-42|a.AppImage|sha256:new',
    url: 'http://127.0.0.1:9/a.AppImage',
    assetName: 'a.AppImage',
    sha256: '22'.repeat(32),
    size: 10,
  };
  const state: AppState = {
    strategy: 'forge',
    releaseAssets: {
      'build-42|a.AppImage': { sha256: '11'.repeat(32), size: 10, installedAt: '2026-01-01T00:00:00Z' },
    },
  };

  void test('a replaced asset under a tag the recipe follows literally is an update, not ASSET_REPLACED', () => {
    const followed = makeSettings(forge('https://github.com/o/r', { tag: 'build-42' }));
    assert.equal(releaseGuard(followed, resolution, state, false), undefined);
    const latest = makeSettings(forge('https://github.com/o/r'));
    assert.equal(releaseGuard(latest, resolution, state, false)?.code, 'ASSET_REPLACED');
  });
});
