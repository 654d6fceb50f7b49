import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useSim } from '../../helpers/sim-suite.js';
import type { AppSettings } from '../../../src/config/types.js';
import { KeeperError } from '../../../src/core/errors.js';
import { createMemoryResolverStore } from '../../../src/sources/memory-store.js';
import { resolveApp } from '../../../src/sources/resolve.js';
import type { Resolution, ResolveOutcome } from '../../../src/sources/types.js';
import { forge, header, makeContext, makeDeps, makeSettings } from '../support.js';

function resolved(outcome: ResolveOutcome): Resolution & { requests: number; notModified: boolean } {
  assert.equal(outcome.kind, 'resolved', JSON.stringify(outcome));
  if (outcome.kind !== 'resolved') throw new Error('unreachable');
  return { ...outcome.resolution, requests: outcome.requests, notModified: outcome.notModified };
}

// A token for a hub that is not this sim: it must never reach the lab or gitea routes.
const foreignToken: Partial<AppSettings> = {
  token: { value: 'hub-only', source: 'secrets.yml' },
  hub_release_api_url: 'http://127.0.0.1:9/api/v3',
};

void describe('lab resolution', () => {
  const sim = useSim('requests');

  const labSettings = (project: string, extra: Partial<AppSettings> = {}): AppSettings =>
    makeSettings(forge(`${sim.url}/${project}`), {
      lab_release_web_url: sim.url,
      lab_release_api_url: sim.labApiUrl,
      ...foreignToken,
      ...extra,
    });

  void test('nested groups, permalink/latest, direct_asset_url preferred, no token', async () => {
    const url = sim.putAsset('/uploads/abc/Tool-x86_64.AppImage', Buffer.from('lab'));
    const direct = sim.putAsset(
      '/group/sub/proj/-/releases/v4.0/downloads/Tool-x86_64.AppImage',
      Buffer.from('lab'),
    );
    sim.lab.setLatest('group/sub/proj', {
      tag: 'v4.0',
      assets: [{ name: 'Tool-x86_64.AppImage', url, directAssetUrl: direct }],
    });
    const r = resolved(await resolveApp(labSettings('group/sub/proj'), makeDeps()));
    assert.equal(r.version, 'v4.0');
    assert.equal(r.url, direct);
    assert.equal(r.assetName, 'Tool-x86_64.AppImage');
    assert.match(r.releaseUrl ?? '', /group\/sub\/proj\/-\/releases\/v4\.0$/);
    const first = sim.requests[0];
    assert.equal(first?.path, '/api/v4/projects/group%2Fsub%2Fproj/releases/permalink/latest');
    for (const req of sim.requests) assert.equal(header(req.headers, 'authorization'), undefined);
  });

  void test('lab_release_web_url alone derives the API as <origin>/api/v4', async () => {
    const url = sim.putAsset('/uploads/solo.AppImage', Buffer.from('solo'));
    sim.lab.setLatest('team/solo', { tag: '1.0', assets: [{ name: 'solo.AppImage', url }] });
    const r = resolved(
      await resolveApp(labSettings('team/solo', { lab_release_api_url: undefined }), makeDeps()),
    );
    assert.equal(r.version, '1.0');
  });

  void test('conditional request on the second run', async () => {
    const url = sim.putAsset('/uploads/c.AppImage', Buffer.from('c'));
    sim.lab.setLatest('team/cond', { tag: '2.0', assets: [{ name: 'c.AppImage', url }] });
    const store = createMemoryResolverStore();
    resolved(await resolveApp(labSettings('team/cond'), makeDeps(makeContext(), store)));
    sim.clearRequests();
    const second = resolved(await resolveApp(labSettings('team/cond'), makeDeps(makeContext(), store)));
    assert.equal(second.notModified, true);
    assert.equal(second.version, '2.0');
    assert.ok(sim.requests.some((r) => header(r.headers, 'if-none-match')));
  });

  void test('the release time min_release_age counts from is released_at', async () => {
    const url = sim.putAsset('/uploads/t.AppImage', Buffer.from('t'));
    const at = new Date('2026-03-04T05:06:07Z');
    sim.lab.setLatest('team/timed', { tag: '1.1', publishedAt: at, assets: [{ name: 't.AppImage', url }] });
    const r = resolved(await resolveApp(labSettings('team/timed'), makeDeps()));
    assert.deepEqual(r.releasedAt, { at: '2026-03-04T05:06:07Z', what: 'published' });
  });

  void test('unknown project is FORGE_NOT_FOUND', async () => {
    await assert.rejects(
      resolveApp(labSettings('no/such'), makeDeps()),
      (err: unknown) => err instanceof KeeperError && err.code === 'FORGE_NOT_FOUND',
    );
  });
});

void describe('gitea / forgejo resolution', () => {
  const sim = useSim('requests');

  const giteaSettings = (repo: string, extra: Partial<AppSettings> = {}): AppSettings =>
    makeSettings(forge(`${sim.url}/${repo}`), { ...foreignToken, ...extra });

  void test('detects Gitea through swagger, caches the answer, and sends no token', async () => {
    const url = sim.putAsset('/attachments/g.AppImage', Buffer.from('g'));
    sim.gitea.setFlavor('gitea');
    sim.gitea.setLatest('team', 'gapp', { tag: 'v0.9', assets: [{ name: 'g.AppImage', url }] });
    const store = createMemoryResolverStore();
    const r = resolved(await resolveApp(giteaSettings('team/gapp'), makeDeps(makeContext(), store)));
    assert.equal(r.version, 'v0.9');
    assert.equal(r.url, url);
    assert.equal(store.getForgeKind(sim.url), 'gitea');
    assert.deepEqual(
      sim.requests.map((q) => q.path),
      ['/swagger.v1.json', '/api/v1/repos/team/gapp/releases/latest'],
    );
    for (const req of sim.requests) assert.equal(header(req.headers, 'authorization'), undefined);

    sim.clearRequests();
    resolved(await resolveApp(giteaSettings('team/gapp'), makeDeps(makeContext(), store)));
    assert.equal(sim.requests.filter((q) => q.path === '/swagger.v1.json').length, 0);
  });

  void test('the release time min_release_age counts from is published_at', async () => {
    sim.gitea.setFlavor('gitea');
    const url = sim.putAsset('/dl/gt.AppImage', Buffer.from('gt'));
    const at = new Date('2026-05-06T07:08:09Z');
    sim.gitea.setLatest('team', 'gtimed', {
      tag: 'v1',
      publishedAt: at,
      assets: [{ name: 'gt.AppImage', url }],
    });
    const r = resolved(await resolveApp(giteaSettings('team/gtimed'), makeDeps()));
    assert.deepEqual(r.releasedAt, { at: '2026-05-06T07:08:09Z', what: 'published' });
  });

  void test('Forgejo is recognised by its title', async () => {
    const url = sim.putAsset('/attachments/f.AppImage', Buffer.from('f'));
    sim.gitea.setFlavor('forgejo');
    sim.gitea.setLatest('team', 'fapp', { tag: 'v2', assets: [{ name: 'f.AppImage', url }] });
    const store = createMemoryResolverStore();
    assert.equal(
      resolved(await resolveApp(giteaSettings('team/fapp'), makeDeps(makeContext(), store))).version,
      'v2',
    );
    assert.equal(store.getForgeKind(sim.url), 'forgejo');
  });

  void test('two apps on one unknown host detect it once per run', async () => {
    const url = sim.putAsset('/attachments/two.AppImage', Buffer.from('2'));
    sim.gitea.setFlavor('gitea');
    sim.gitea.setLatest('team', 'one', { tag: 'a', assets: [{ name: 'two.AppImage', url }] });
    sim.gitea.setLatest('team', 'two', { tag: 'b', assets: [{ name: 'two.AppImage', url }] });
    const deps = makeDeps();
    await Promise.all([
      resolveApp(giteaSettings('team/one', { name: 'one' }), deps),
      resolveApp(giteaSettings('team/two', { name: 'two' }), deps),
    ]);
    assert.equal(sim.requests.filter((q) => q.path === '/swagger.v1.json').length, 1);
  });

  void test('a host that is neither is FORGE_UNKNOWN, and nothing is cached', async () => {
    sim.gitea.setFlavor('none');
    const store = createMemoryResolverStore();
    await assert.rejects(resolveApp(giteaSettings('x/y'), makeDeps(makeContext(), store)), (err: unknown) => {
      assert.ok(err instanceof KeeperError);
      assert.equal(err.code, 'FORGE_UNKNOWN');
      assert.match(err.message, new RegExp(sim.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      return true;
    });
    assert.equal(store.getForgeKind(sim.url), undefined);
  });
});
