/** The source registry: every kind registered once, URLs routed to their kind, capabilities declared. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AppSettings } from '../../src/config/types.js';
import { KeeperError } from '../../src/core/errors.js';
import { createMemoryResolverStore, sourceFor, sources, type SourceKind } from '../../src/sources/index.js';
import { canonicalRepository, forges, knownByHost, routeRepository } from '../../src/sources/forges.js';
import { FORGE_CASES } from './forge-cases.js';
import { useSim } from '../helpers/sim-suite.js';
import { forge, header, makeContext, makeDeps, makeSettings } from './support.js';

const onForge = (repository: string, extra: Partial<AppSettings> = {}): AppSettings =>
  makeSettings(forge(repository), extra);
const direct = makeSettings({
  strategy: 'direct',
  url: 'https://dl.example.org/app.AppImage',
  check_method: 'etag',
});
const script = makeSettings(
  { strategy: 'script', script_path: '/recipes/demo/resolver.sh' },
  { name: 'scripted' },
);

void describe('source registry', () => {
  void test('every kind is registered once, under its own kind', () => {
    // The forges are listed once, in forge-cases.ts; direct and script are the two others.
    const kinds: SourceKind[] = [...(Object.keys(FORGE_CASES) as SourceKind[]), 'direct', 'script'];
    assert.deepEqual(Object.keys(sources).sort(), [...kinds].sort());
    for (const kind of kinds) assert.equal(sources[kind].kind, kind);
  });

  void test('public hosts route to the hub and the lab, any other host to gitea', () => {
    assert.equal(sourceFor(onForge('https://github.com/o/r')).kind, 'hub');
    assert.equal(sourceFor(onForge('https://gitlab.com/group/sub/project')).kind, 'lab');
    assert.equal(sourceFor(onForge('https://codeberg.org/o/r')).kind, 'gitea');
    assert.equal(sourceFor(direct).kind, 'direct');
    assert.equal(sourceFor(script).kind, 'script');
  });

  void test('the configured web hosts route to the hub and the lab, with their API bases', () => {
    const settings = {
      hub_release_web_url: 'https://ghe.example.com',
      hub_release_api_url: 'https://ghe.example.com/api/v3',
      lab_release_web_url: 'https://lab.example.com',
    };
    const ghe = sourceFor(onForge('https://ghe.example.com/o/r', settings));
    assert.equal(ghe.kind, 'hub');
    assert.equal(ghe.hubApiBase, 'https://ghe.example.com/api/v3');
    assert.equal(sourceFor(onForge('https://lab.example.com/g/p', settings)).kind, 'lab');
    // Without the setting the same host is just another self-hosted forge.
    assert.equal(sourceFor(onForge('https://ghe.example.com/o/r')).kind, 'gitea');
  });

  void test('a repository URL no forge can use is FORGE_REPOSITORY_INVALID', () => {
    for (const bad of ['not a url', 'ftp://github.com/o/r', 'https://github.com/only-owner']) {
      assert.throws(
        () => sourceFor(onForge(bad)),
        (err: unknown) => err instanceof KeeperError && err.code === 'FORGE_REPOSITORY_INVALID',
        bad,
      );
    }
  });

  void test('capabilities: forges keep release assets, direct reads the version from the file', () => {
    const strategy = { inner_asset_match: '*.AppImage', tag: 'continuous' };
    const hub = sourceFor(makeSettings(forge('https://github.com/o/r', strategy)));
    assert.deepEqual(hub.caps, { versionFromFile: false, releaseAssets: true });
    assert.equal(hub.limiterKey, 'https://github.com/o/r');
    assert.equal(hub.innerAssetMatch, '*.AppImage');
    assert.equal(hub.followedTag, 'continuous');
    assert.equal(hub.hubApiBase, 'https://api.github.com');
    assert.equal(hub.runs, undefined);

    for (const repository of ['https://gitlab.com/g/p', 'https://codeberg.org/o/r']) {
      const other = sourceFor(makeSettings(forge(repository, strategy)));
      assert.deepEqual(other.caps, { versionFromFile: false, releaseAssets: true });
      assert.equal(other.limiterKey, repository);
      assert.equal(other.innerAssetMatch, '*.AppImage');
      assert.equal(other.hubApiBase, undefined, 'only the hub has a rate_limit budget to probe');
      assert.equal(other.attestations, undefined, 'only the hub publishes attestations');
    }

    const d = sourceFor(direct);
    assert.deepEqual(d.caps, { versionFromFile: true, releaseAssets: false });
    assert.equal(d.limiterKey, 'https://dl.example.org/app.AppImage');
    assert.equal(d.innerAssetMatch, undefined);
    assert.equal(d.attestations, undefined);

    const s = sourceFor(script);
    assert.deepEqual(s.caps, { versionFromFile: false, releaseAssets: false });
    assert.equal(s.limiterKey, 'script:scripted');
    assert.deepEqual(s.runs, { program: 'bash', file: '/recipes/demo/resolver.sh' });
  });

  void test('the hub hands out its attestation endpoint per digest', () => {
    const hub = sourceFor(onForge('https://github.com/o/r.git'));
    const endpoint = hub.attestations?.(makeDeps());
    assert.ok(endpoint);
    assert.equal(endpoint.owner, 'o');
    assert.equal(endpoint.repo, 'r');
    assert.equal(
      endpoint.url('ab'.repeat(32)),
      `https://api.github.com/repos/o/r/attestations/sha256:${'ab'.repeat(32)}`,
    );
  });
});

void describe('forge routing map', () => {
  void test('each forge routes its URLs and supplies its canonical repository URL', () => {
    for (const [kind, { url, canonical }] of Object.entries(FORGE_CASES)) {
      assert.equal(routeRepository(url, {}).kind, kind, url);
      assert.equal(canonicalRepository(url, {}), canonical, url);
      assert.equal(sourceFor(onForge(url)).kind, kind, url);
    }
    assert.deepEqual(Object.keys(forges).sort(), Object.keys(FORGE_CASES).sort());
  });

  void test('a forge owns hosts by name; the one without a host list takes every other host', () => {
    const named = Object.values(forges).filter((f) => 'ownsHost' in f);
    assert.equal(Object.keys(forges).length - named.length, 1, 'exactly one forge takes any host');
    assert.equal(knownByHost('https://github.com/o/r', {}), true);
    assert.equal(knownByHost('https://gitlab.com/g/p', {}), true);
    assert.equal(knownByHost('https://codeberg.org/o/r', {}), false);
    assert.equal(knownByHost('not a url', {}), false);
    assert.equal(canonicalRepository('https://github.com/only-owner', {}), undefined);
  });
});

void describe('source registry over the sim', () => {
  const sim = useSim('requests');

  void test('an unknown host resolves as gitea once detection says so; the hub token stays home', async () => {
    const url = sim.putAsset('/files/reg.AppImage', Buffer.from('reg'));
    sim.gitea.setFlavor('forgejo');
    sim.gitea.setLatest('team', 'reg', { tag: 'v3', assets: [{ name: 'reg.AppImage', url }] });
    const settings = onForge(`${sim.url}/team/reg`, {
      token: { value: 'hub-only', source: 'secrets.yml' },
    });
    const source = sourceFor(settings);
    assert.equal(source.kind, 'gitea');
    const store = createMemoryResolverStore();
    const outcome = await source.resolve(makeDeps(makeContext(), store));
    assert.equal(outcome.kind, 'resolved');
    if (outcome.kind === 'resolved') {
      assert.equal(outcome.resolution.version, 'v3');
      assert.equal(outcome.requests, 2, 'swagger, then the release');
    }
    assert.equal(store.getForgeKind(sim.url), 'forgejo');
    for (const req of sim.requests) assert.equal(header(req.headers, 'authorization'), undefined);
  });

  void test('a host that is no Gitea or Forgejo is FORGE_UNKNOWN', async () => {
    sim.gitea.setFlavor('none');
    await assert.rejects(
      sourceFor(onForge(`${sim.url}/team/none`)).resolve(makeDeps()),
      (err: unknown) => err instanceof KeeperError && err.code === 'FORGE_UNKNOWN',
    );
  });

  void test('the hub fetches attestations with its token, under its API base', async () => {
    const hex = 'cd'.repeat(32);
    const settings = onForge(`${sim.url}/st/att`, {
      hub_release_web_url: sim.url,
      hub_release_api_url: sim.hubApiUrl,
      token: { value: 'hub-secret', source: 'secrets.yml' },
    });
    const endpoint = sourceFor(settings).attestations?.(makeDeps());
    assert.ok(endpoint);
    const url = endpoint.url(hex);
    assert.ok(url.startsWith(`${sim.hubApiUrl}/repos/st/att/attestations/`), url);
    sim.hub.setAttestations('st', 'att', hex, [{ mediaType: 'opaque to the source' }]);
    const got = await endpoint.fetch(url, 'attestations');
    assert.equal(got.kind, 'ok');
    const asked = sim.requests.find((r) => r.path.includes('/attestations/'));
    assert.equal(header(asked?.headers ?? {}, 'authorization'), 'Bearer hub-secret');
  });
});
