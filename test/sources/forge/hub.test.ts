import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSim } from '../../helpers/sim-suite.js';
import type { AppSettings } from '../../../src/config/types.js';
import { KeeperError } from '../../../src/core/errors.js';
import { createMemoryResolverStore } from '../../../src/sources/memory-store.js';
import { resolveApp } from '../../../src/sources/resolve.js';
import type { Resolution, ResolveOutcome } from '../../../src/sources/types.js';
import { forge, header, makeContext, makeDeps, makeSettings } from '../support.js';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

function resolved(outcome: ResolveOutcome): Resolution & { requests: number; notModified: boolean } {
  assert.equal(outcome.kind, 'resolved', JSON.stringify(outcome));
  if (outcome.kind !== 'resolved') throw new Error('unreachable');
  return { ...outcome.resolution, requests: outcome.requests, notModified: outcome.notModified };
}

void describe('hub resolution against the sim', () => {
  // The /api/v3 prefix keeps the hub API base distinct from the sim's lab and gitea routes.
  const sim = useSim('requests-and-faults', { hubApiPrefix: '/api/v3' });
  const hubSettings = (repo: string, extra: Partial<AppSettings> = {}, pre = false): AppSettings =>
    makeSettings(forge(`${sim.url}/${repo}`, { prerelease: pre }), {
      hub_release_web_url: sim.url,
      hub_release_api_url: sim.hubApiUrl,
      token: { value: 'tok-123', source: 'env:HUB_TOKEN' },
      ...extra,
    });

  void test('latest release: asset, digest, zsync and checksum companions, token on the API request only', async () => {
    const url = sim.putAsset('/dl/App-1.2-x86_64.AppImage', Buffer.from('appimage-bytes'));
    const zsync = sim.putAsset('/dl/App-1.2-x86_64.AppImage.zsync', Buffer.from('z'));
    const sums = sim.putAsset('/dl/App-1.2-x86_64.AppImage.sha256', Buffer.from('s'));
    sim.hub.setLatest('acme', 'app', {
      tag: 'v1.2',
      assets: [
        { name: 'App-1.2-x86_64.AppImage', url, digest: DIGEST },
        { name: 'App-1.2-aarch64.AppImage', url: `${sim.url}/dl/none`, size: 1 },
        { name: 'App-1.2-x86_64.AppImage.zsync', url: zsync },
        { name: 'App-1.2-x86_64.AppImage.sha256', url: sums },
      ],
    });
    const r = resolved(await resolveApp(hubSettings('acme/app'), makeDeps()));
    assert.equal(r.version, 'v1.2');
    assert.equal(r.url, url);
    assert.equal(r.assetName, 'App-1.2-x86_64.AppImage');
    assert.equal(r.sha256, 'ab'.repeat(32));
    assert.equal(r.size, 'appimage-bytes'.length);
    assert.equal(r.zsyncUrl, zsync);
    assert.equal(r.checksumUrl, sums);
    assert.match(r.identity, /^v1\.2\|App-1\.2-x86_64\.AppImage\|sha256:/);
    assert.match(r.releaseUrl ?? '', /\/acme\/app\/releases\/tag\/v1\.2$/);
    assert.equal(r.requests, 1);
    assert.equal(sim.requests.length, 1);
    const api = sim.requests[0];
    assert.equal(api?.path, '/api/v3/repos/acme/app/releases/latest');
    assert.equal(header(api?.headers ?? {}, 'authorization'), 'Bearer tok-123');
  });

  void test('second resolution is conditional: If-None-Match, 304, cached body reused', async () => {
    const url = sim.putAsset('/dl/cond.AppImage', Buffer.from('c'));
    sim.hub.setLatest('acme', 'cond', { tag: 'v1', assets: [{ name: 'cond.AppImage', url }] });
    const store = createMemoryResolverStore();
    const first = resolved(await resolveApp(hubSettings('acme/cond'), makeDeps(makeContext(), store)));
    assert.equal(first.notModified, false);
    sim.clearRequests();
    const second = resolved(await resolveApp(hubSettings('acme/cond'), makeDeps(makeContext(), store)));
    assert.equal(second.notModified, true);
    assert.equal(second.identity, first.identity);
    assert.equal(sim.requests.length, 1);
    assert.ok(header(sim.requests[0]?.headers ?? {}, 'if-none-match'));
  });

  void test('two apps on one repository cost one request per run', async () => {
    const url = sim.putAsset('/dl/shared.AppImage', Buffer.from('s'));
    sim.hub.setLatest('acme', 'shared', { tag: 'v3', assets: [{ name: 'shared.AppImage', url }] });
    const deps = makeDeps();
    const [a, b] = await Promise.all([
      resolveApp(hubSettings('acme/shared', { name: 'one' }), deps),
      resolveApp(hubSettings('acme/shared', { name: 'two' }), deps),
    ]);
    assert.equal(resolved(a).version, 'v3');
    assert.equal(resolved(b).version, 'v3');
    assert.equal(resolved(a).requests + resolved(b).requests, 1);
    assert.equal(sim.requests.filter((r) => r.path.includes('/repos/acme/shared/')).length, 1);
  });

  void test('prerelease: true reads the release list, drafts skipped; default follows latest', async () => {
    const url = sim.putAsset('/dl/pre.AppImage', Buffer.from('p'));
    sim.hub.setReleases('acme', 'pre', [
      { tag: 'v3-draft', draft: true, assets: [{ name: 'pre.AppImage', url }] },
      { tag: 'v2-rc1', prerelease: true, assets: [{ name: 'pre.AppImage', url }] },
      { tag: 'v1', assets: [{ name: 'pre.AppImage', url }] },
    ]);
    const pre = resolved(await resolveApp(hubSettings('acme/pre', {}, true), makeDeps()));
    assert.equal(pre.version, 'v2-rc1');
    assert.ok(
      sim.requests.some(
        (r) => r.path.startsWith('/api/v3/repos/acme/pre/releases') && !r.path.includes('latest'),
      ),
    );
    const stable = resolved(await resolveApp(hubSettings('acme/pre'), makeDeps()));
    assert.equal(stable.version, 'v1');
  });

  void test('a moving tag with a new asset gets a new identity', async () => {
    const url = sim.putAsset('/dl/nightly.AppImage', Buffer.from('n1'));
    sim.hub.setLatest('acme', 'nightly', {
      tag: 'continuous',
      assets: [{ name: 'nightly.AppImage', url, digest: `sha256:${'11'.repeat(32)}` }],
    });
    const first = resolved(await resolveApp(hubSettings('acme/nightly'), makeDeps()));
    sim.hub.setLatest('acme', 'nightly', {
      tag: 'continuous',
      assets: [{ name: 'nightly.AppImage', url, digest: `sha256:${'22'.repeat(32)}` }],
    });
    const second = resolved(await resolveApp(hubSettings('acme/nightly'), makeDeps()));
    assert.equal(second.version, first.version);
    assert.notEqual(second.identity, first.identity);
  });

  void test('without a digest the re-uploaded asset id still changes the identity', async () => {
    const url = sim.putAsset('/dl/cont.AppImage', Buffer.from('c1'));
    sim.hub.setLatest('acme', 'cont', { tag: 'continuous', assets: [{ name: 'cont.AppImage', url }] });
    const first = resolved(await resolveApp(hubSettings('acme/cont'), makeDeps()));
    assert.match(first.identity, /\|id:\d+/);
    sim.hub.setLatest('acme', 'cont', { tag: 'continuous', assets: [{ name: 'cont.AppImage', url }] });
    const second = resolved(await resolveApp(hubSettings('acme/cont'), makeDeps()));
    assert.notEqual(second.identity, first.identity);
  });

  void test('a missing repository is FORGE_NOT_FOUND naming the URL', async () => {
    await assert.rejects(resolveApp(hubSettings('nobody/nothing'), makeDeps()), (err: unknown) => {
      assert.ok(err instanceof KeeperError);
      assert.equal(err.code, 'FORGE_NOT_FOUND');
      assert.match(err.message, /nobody\/nothing/);
      return true;
    });
  });

  void test('no matching asset surfaces ASSET_NO_MATCH with the list', async () => {
    sim.hub.setLatest('acme', 'tarball', {
      tag: 'v1',
      assets: [{ name: 'src.tar.gz', url: `${sim.url}/x`, size: 1 }],
    });
    await assert.rejects(
      resolveApp(hubSettings('acme/tarball'), makeDeps()),
      (err: unknown) =>
        err instanceof KeeperError && err.code === 'ASSET_NO_MATCH' && /src\.tar\.gz/.test(err.hint ?? ''),
    );
  });

  void test('a hub API redirect to another origin loses the token; direct URLs never get it', async () => {
    const url = sim.putAsset('/dl/moved.AppImage', Buffer.from('m'));
    sim.hub.setLatest('acme', 'renamed', { tag: 'v9', assets: [{ name: 'moved.AppImage', url }] });
    sim.redirect(
      '/api/v3/repos/acme/moved/releases/latest',
      `${sim.secondUrl}/api/v3/repos/acme/renamed/releases/latest`,
      301,
    );
    const r = resolved(await resolveApp(hubSettings('acme/moved'), makeDeps()));
    assert.equal(r.version, 'v9');
    const first = sim.requests.find((q) => q.origin === 'main');
    const second = sim.requests.find((q) => q.origin === 'second');
    assert.equal(header(first?.headers ?? {}, 'authorization'), 'Bearer tok-123');
    assert.ok(second, 'the redirect was followed');
    assert.equal(header(second.headers, 'authorization'), undefined);

    sim.clearRequests();
    const directUrl = sim.putAsset('/api/v3-lookalike/app.AppImage', Buffer.from('d'), { etag: '"d"' });
    const direct = makeSettings(
      { strategy: 'direct', url: directUrl, check_method: 'etag' },
      { hub_release_api_url: sim.hubApiUrl, token: { value: 'tok-123', source: 'env:HUB_TOKEN' } },
    );
    resolved(await resolveApp(direct, makeDeps()));
    assert.equal(header(sim.requests[0]?.headers ?? {}, 'authorization'), undefined);
  });

  void test('without a token no Authorization is sent', async () => {
    const url = sim.putAsset('/dl/anon.AppImage', Buffer.from('a'));
    sim.hub.setLatest('acme', 'anon', { tag: 'v1', assets: [{ name: 'anon.AppImage', url }] });
    resolved(await resolveApp(hubSettings('acme/anon', { token: undefined }), makeDeps()));
    assert.equal(header(sim.requests[0]?.headers ?? {}, 'authorization'), undefined);
  });
});
