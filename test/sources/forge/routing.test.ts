import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { routeRepository } from '../../../src/sources/forges.js';
import {
  builtinProxyBases,
  BUILTIN_PROXY_BASES,
  namesRepository,
  proxyBases,
} from '../../../src/sources/forge/proxy.js';
import { hubApiBase, hubAuthHeaders, isUnderBase } from '../../../src/sources/forge/token.js';
import { KeeperError } from '../../../src/core/errors.js';
import { forge, makeSettings } from '../support.js';

const none = {};

void describe('repository routing', () => {
  void test('github.com goes to the public hub API', () => {
    assert.deepEqual(routeRepository('https://github.com/owner/repo', none), {
      kind: 'hub',
      apiBase: 'https://api.github.com',
      owner: 'owner',
      repo: 'repo',
    });
  });

  void test('a trailing .git is dropped from the hub repository name', () => {
    const route = routeRepository('https://github.com/o/r.git', none);
    assert.equal(route.kind === 'hub' && route.repo, 'r');
  });

  void test('hub_release_web_url host with hub_release_api_url base', () => {
    const route = routeRepository('https://git.corp.example/team/tool', {
      hub_release_web_url: 'https://git.corp.example',
      hub_release_api_url: 'https://git.corp.example/api/v3/',
    });
    assert.deepEqual(route, {
      kind: 'hub',
      apiBase: 'https://git.corp.example/api/v3',
      owner: 'team',
      repo: 'tool',
    });
  });

  void test('an enterprise web host without an API base defaults to /api/v3', () => {
    assert.equal(hubApiBase({ hub_release_web_url: 'https://ghe.example' }), 'https://ghe.example/api/v3');
  });

  void test('gitlab.com keeps nested groups and stops at /-/', () => {
    assert.deepEqual(routeRepository('https://gitlab.com/group/sub/project/-/releases', none), {
      kind: 'lab',
      apiBase: 'https://gitlab.com/api/v4',
      path: 'group/sub/project',
    });
  });

  void test('lab_release_web_url host with and without lab_release_api_url', () => {
    const web = { lab_release_web_url: 'http://127.0.0.1:9999' };
    assert.deepEqual(routeRepository('http://127.0.0.1:9999/a/b', web), {
      kind: 'lab',
      apiBase: 'http://127.0.0.1:9999/api/v4',
      path: 'a/b',
    });
    const route = routeRepository('http://127.0.0.1:9999/a/b', {
      ...web,
      lab_release_api_url: 'http://127.0.0.1:1/x',
    });
    assert.equal(route.kind === 'lab' && route.apiBase, 'http://127.0.0.1:1/x');
  });

  void test('any other host goes to gitea, detected later', () => {
    assert.deepEqual(routeRepository('https://codeberg.org/o/r', none), {
      kind: 'gitea',
      origin: 'https://codeberg.org',
      owner: 'o',
      repo: 'r',
    });
  });

  void test('unusable repository URLs are clear errors', () => {
    for (const bad of [
      'not a url',
      'ftp://github.com/o/r',
      'https://github.com/only-owner',
      'https://gitlab.com/x',
      // Malformed percent-encoding: decoding the path must not escape as a URIError.
      'https://github.com/o/%E0',
      'https://codeberg.org/%ZZ/r',
    ]) {
      assert.throws(
        () => routeRepository(bad, none),
        (err: unknown) => err instanceof KeeperError && err.code === 'FORGE_REPOSITORY_INVALID',
      );
    }
  });
});

void describe('token scope', () => {
  const settings = makeSettings(forge('https://github.com/o/r'), {
    token: { value: 's3cret', source: 'env:HUB_TOKEN' },
  });

  void test('attached under the hub API base only', () => {
    assert.deepEqual(hubAuthHeaders('https://api.github.com/repos/o/r/releases/latest', settings), {
      authorization: 'Bearer s3cret',
    });
    assert.deepEqual(hubAuthHeaders('https://api.github.com.evil.example/repos/o/r', settings), {});
    assert.deepEqual(hubAuthHeaders('https://github.com/o/r/releases/download/v1/a.AppImage', settings), {});
    assert.deepEqual(hubAuthHeaders('https://gh-proxy.com/https://api.github.com/repos/o/r', settings), {});
  });

  void test('follows hub_release_api_url', () => {
    const custom = { ...settings, hub_release_api_url: 'http://127.0.0.1:8080/api/v3' };
    assert.deepEqual(hubAuthHeaders('https://api.github.com/repos/o/r', custom), {});
    assert.ok(hubAuthHeaders('http://127.0.0.1:8080/api/v3/repos/o/r', custom).authorization);
    assert.deepEqual(hubAuthHeaders('http://127.0.0.1:8080/api/v4/projects/x', custom), {});
  });

  void test('a path outside the base on the same origin is outside', () => {
    const base = 'http://127.0.0.1:8080/api/v3';
    assert.equal(isUnderBase('http://127.0.0.1:8080/api/v3/repos/o/r', base), true);
    assert.equal(isUnderBase('http://127.0.0.1:8080/api/v3?x=1', base), true);
    assert.equal(isUnderBase('http://127.0.0.1:8080/api/v3evil/repos/o/r', base), false);
    assert.equal(isUnderBase('http://127.0.0.1:8080/uploads/x', base), false);
    assert.equal(isUnderBase('http://127.0.0.1:8080/api/v3/../uploads/x', base), false);
    assert.equal(isUnderBase('http://127.0.0.1:8080/api/v3/%2e%2e/uploads/x', base), false);
    assert.equal(isUnderBase('http://127.0.0.1:8081/api/v3/repos', base), false);
    assert.equal(isUnderBase('https://API.github.com:443/repos/o/r', 'https://api.github.com'), true);
  });

  void test('no token, no header', () => {
    assert.deepEqual(
      hubAuthHeaders('https://api.github.com/repos/o/r', { ...settings, token: undefined }),
      {},
    );
  });
});

void describe('proxy helpers', () => {
  void test('`all` expands to the built-in list, lists keep their order', () => {
    assert.deepEqual(proxyBases('all', ['a/', 'b/']), ['a/', 'b/']);
    assert.deepEqual(proxyBases(['x/', 'all', 'y/'], ['a/']), ['x/', 'a/', 'y/']);
  });

  void test('the built-in list: override, then environment, then defaults', () => {
    assert.deepEqual(builtinProxyBases({}, ['o/']), ['o/']);
    assert.deepEqual(builtinProxyBases({ APPIMAGE_KEEPER_PROXY_BUILTINS: 'p/, q/' }), ['p/', 'q/']);
    assert.deepEqual(builtinProxyBases({ APPIMAGE_KEEPER_PROXY_BUILTINS: '' }), []);
    assert.deepEqual(builtinProxyBases({}), BUILTIN_PROXY_BASES);
  });

  void test('proxied metadata must name the repository', () => {
    const release = { html_url: 'https://github.com/Owner/Repo/releases/tag/v1', assets: [] };
    assert.equal(namesRepository(release, 'owner', 'repo'), true);
    assert.equal(namesRepository(release, 'owner', 'other'), false);
    assert.equal(
      namesRepository(
        { assets: [{ browser_download_url: 'https://x/o/r/releases/download/v1/a' }] },
        'o',
        'r',
      ),
      true,
    );
    assert.equal(
      namesRepository([release, { html_url: 'https://github.com/evil/repo/x' }], 'owner', 'repo'),
      false,
    );
    assert.equal(namesRepository([], 'o', 'r'), false);
    assert.equal(namesRepository('<html>', 'o', 'r'), false);
  });
});
