/**
 * `check` through the built CLI for every kind of outbound request (docs/check.md): hub, lab,
 * gitea/forgejo detection, direct (ETag, Last-Modified, HEAD refused) and
 * script recipes.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import { hostArch } from '../../../src/appimage/elf.js';
import { runCli } from '../../helpers/run-cli.js';
import {
  app,
  check,
  cliEnv,
  directRecipe,
  hubRecipe,
  publishHub,
  requestsTo,
  useE2e,
  writeScriptRecipe,
} from './helpers.js';
import { sha256 } from '../../helpers/sha256.js';

const HOST_ARCH = hostArch(process.arch);

void describe('check: forge recipes', () => {
  const e = useE2e();

  void test('hub: hub_release_api_url base, releases/latest, tag as version', async () => {
    const h = await e.home();
    const urls = publishHub(e.sim, 'hubown/tool', 'v1.2.3', ['Tool-1.2.3-x86_64.AppImage']);
    await h.writeRecipe('tool', hubRecipe(e.sim, 'tool', 'hubown/tool'));
    const r = await check(cliEnv(h));
    assert.equal(r.code, 0, r.stderr);
    const a = app(r, 'tool');
    assert.equal(a.status, 'update_available');
    assert.equal(a.latest_version, 'v1.2.3');
    assert.equal(a.url, urls['Tool-1.2.3-x86_64.AppImage']);
    const reqs = requestsTo(e.sim, '/repos/hubown/tool/');
    assert.deepEqual(
      reqs.map((q) => `${q.origin} ${q.method} ${q.path}`),
      ['main GET /repos/hubown/tool/releases/latest'],
    );
    assert.equal(reqs[0]?.headers.accept, 'application/vnd.github+json');
    assert.match(String(reqs[0]?.headers['user-agent']), /^appimage-keeper\//);
  });

  void test('lab: nested groups, api/web overrides, direct_asset_url preferred', async () => {
    const h = await e.home();
    const link = e.sim.putAsset('/lab/links/Proj-x86_64.AppImage', Buffer.from('link'));
    const direct = e.sim.putAsset('/lab/direct/Proj-x86_64.AppImage', Buffer.from('direct'));
    e.sim.lab.setLatest('grp/sub/proj', {
      tag: 'v3.1',
      assets: [{ name: 'Proj-x86_64.AppImage', url: link, directAssetUrl: direct }],
    });
    // Web host = the second origin (so it is not taken for the hub or a gitea); API on the main one.
    const recipe = (name: string, repository: string): string =>
      stringify({
        name,
        lab_release_api_url: e.sim.labApiUrl,
        lab_release_web_url: e.sim.secondUrl,
        strategy: { strategy: 'forge', repository, asset_match: 'Proj-*.AppImage' },
      });
    await h.writeRecipe('proj', recipe('proj', `${e.sim.secondUrl}/grp/sub/proj`));
    await h.writeRecipe('proj-page', recipe('proj-page', `${e.sim.secondUrl}/grp/sub/proj/-/releases`));
    const r = await check(cliEnv(h));
    assert.equal(r.code, 0, r.stderr);
    for (const name of ['proj', 'proj-page']) {
      const a = app(r, name);
      assert.equal(a.status, 'update_available', JSON.stringify(a));
      assert.equal(a.latest_version, 'v3.1');
      assert.equal(a.url, direct);
    }
    const permalink = requestsTo(e.sim, '/api/v4/projects/');
    assert.equal(permalink[0]?.origin, 'main');
    assert.equal(permalink[0]?.path, '/api/v4/projects/grp%2Fsub%2Fproj/releases/permalink/latest');
    // Both recipes name one project: one permalink request, then the redirect GitLab answers with.
    assert.equal(permalink.length, 2, permalink.map((q) => q.path).join('\n'));
    assert.match(permalink[1]?.path ?? '', /^\/api\/v4\/projects\/\d+\/releases\/v3\.1$/);
    assert.equal(requestsTo(e.sim, '/swagger.v1.json').length, 0);
  });

  for (const flavor of ['gitea', 'forgejo'] as const) {
    void test(`${flavor}: detected through /swagger.v1.json, cached in state`, async () => {
      const h = await e.home();
      e.sim.gitea.setFlavor(flavor);
      const url = e.sim.putAsset(`/gt/${flavor}/Gt-x86_64.AppImage`, Buffer.from(flavor));
      e.sim.gitea.setLatest(`${flavor}own`, 'gt', {
        tag: '0.9',
        assets: [{ name: 'Gt-x86_64.AppImage', url }],
      });
      await h.writeRecipe(
        'gt',
        stringify({
          name: 'gt',
          strategy: {
            strategy: 'forge',
            repository: `${e.sim.url}/${flavor}own/gt`,
            asset_match: '*.AppImage',
          },
        }),
      );
      const env = cliEnv(h);
      e.sim.clearRequests();
      const first = await check(env);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(app(first, 'gt').latest_version, '0.9');
      assert.equal(app(first, 'gt').url, url);
      assert.deepEqual(
        e.sim.requests.map((q) => `${q.method} ${q.path}`),
        ['GET /swagger.v1.json', `GET /api/v1/repos/${flavor}own/gt/releases/latest`],
      );
      const state = JSON.parse(await readFile(join(h.stateDir, 'state.json'), 'utf8')) as {
        forgeKinds: Record<string, string>;
      };
      assert.equal(state.forgeKinds[e.sim.url], flavor);

      e.sim.clearRequests();
      const second = await check(env);
      assert.equal(app(second, 'gt').latest_version, '0.9');
      assert.deepEqual(
        e.sim.requests.map((q) => `${q.method} ${q.path}`),
        [`GET /api/v1/repos/${flavor}own/gt/releases/latest`],
      );
    });
  }

  void test('a host that is no known forge fails that app with FORGE_UNKNOWN', async () => {
    const h = await e.home();
    e.sim.gitea.setFlavor('none');
    await h.writeRecipe(
      'mystery',
      stringify({
        name: 'mystery',
        strategy: {
          strategy: 'forge',
          repository: `${e.sim.secondUrl}/who/knows`,
          asset_match: '*.AppImage',
        },
      }),
    );
    const r = await check(cliEnv(h));
    assert.equal(r.code, 1);
    assert.equal(app(r, 'mystery').status, 'failed');
    assert.equal(app(r, 'mystery').error?.code, 'FORGE_UNKNOWN');
    const state = JSON.parse(await readFile(join(h.stateDir, 'state.json'), 'utf8')) as {
      forgeKinds: Record<string, string>;
    };
    assert.deepEqual(state.forgeKinds, {});
  });
});

void describe('check: direct and script recipes', () => {
  const e = useE2e();

  void test('direct: ETag and Last-Modified identities, missing header, HEAD refused', async () => {
    const h = await e.home();
    const etagUrl = e.sim.putAsset('/direct/etag.AppImage', Buffer.from('e'), { etag: '"abc-1"' });
    const lmUrl = e.sim.putAsset('/direct/lm.AppImage', Buffer.from('l'), {
      etag: false,
      lastModified: new Date('2024-05-06T07:08:09Z'),
    });
    const bareUrl = e.sim.putAsset('/direct/bare.AppImage', Buffer.from('b'), { etag: false });
    const noHeadUrl = e.sim.putAsset('/direct/nohead.AppImage', Buffer.from('n'), { etag: '"nh"' });
    e.sim.fault('/direct/nohead.AppImage', { headRefused: true });
    await h.writeRecipe('d-etag', directRecipe('d-etag', etagUrl, 'etag'));
    await h.writeRecipe('d-lm', directRecipe('d-lm', lmUrl, 'last-modified'));
    await h.writeRecipe('d-bare', directRecipe('d-bare', bareUrl, 'etag'));
    await h.writeRecipe('d-nohead', directRecipe('d-nohead', noHeadUrl, 'etag'));
    e.sim.clearRequests();
    const r = await check(cliEnv(h));
    assert.equal(r.code, 1, 'the app without the header fails the run');

    const shortHash = (s: string): string => sha256(s).slice(0, 8);
    assert.equal(app(r, 'd-etag').status, 'update_available');
    assert.equal(app(r, 'd-etag').latest_version, `etag-${shortHash('"abc-1"')}`);
    assert.equal(app(r, 'd-lm').latest_version, '2024-05-06');
    const bare = app(r, 'd-bare');
    assert.equal(bare.status, 'failed');
    assert.equal(bare.error?.code, 'DIRECT_NO_HEADER');
    assert.match(bare.error?.message ?? '', /ETag/);
    assert.ok(bare.error?.message.includes(bareUrl), bare.error?.message);
    assert.equal(app(r, 'd-nohead').latest_version, `etag-${shortHash('"nh"')}`);
    assert.equal(r.json?.summary.failed, 1);

    const seen = (path: string): string[] =>
      requestsTo(e.sim, path).map((q) => `${q.method} ${String(q.headers.range ?? '')}`.trim());
    assert.deepEqual(seen('/direct/etag.AppImage'), ['HEAD']);
    assert.deepEqual(seen('/direct/lm.AppImage'), ['HEAD']);
    assert.deepEqual(seen('/direct/nohead.AppImage'), ['HEAD', 'GET bytes=0-0']);
  });

  void test('script: env variables, timeout, non-zero exit with stderr, bad output', async () => {
    const h = await e.home();
    const envDir = await writeScriptRecipe(
      h,
      'sc-env',
      [
        'printf "%s|%s|%s" "$APP_NAME" "$APP_VERSION" "$APP_ARCH" > seen-env.txt',
        `echo "${e.sim.url}/files/sc-env.AppImage"`,
        'echo "4.5.6"',
      ].join('\n'),
    );
    await writeScriptRecipe(h, 'sc-slow', 'sleep 30\necho never', { timeout: 1 });
    await writeScriptRecipe(h, 'sc-exit', 'echo "upstream said no" >&2\nexit 3');
    await writeScriptRecipe(h, 'sc-oneline', `echo "${e.sim.url}/files/x.AppImage"`);
    await writeScriptRecipe(h, 'sc-nourl', 'echo "latest-build"\necho "1.0"');
    const r = await check(cliEnv(h));
    assert.equal(r.code, 1);

    const ok = app(r, 'sc-env');
    assert.equal(ok.status, 'update_available');
    assert.equal(ok.latest_version, '4.5.6');
    assert.equal(ok.url, `${e.sim.url}/files/sc-env.AppImage`);
    // The script ran in its recipe folder (relative output file) with the three variables.
    assert.equal(await readFile(join(envDir, 'seen-env.txt'), 'utf8'), `sc-env||${HOST_ARCH}`);

    const expectFailure = (name: string, code: string, message: RegExp): void => {
      const a = app(r, name);
      assert.equal(a.status, 'failed', name);
      assert.equal(a.error?.code, code, `${name}: ${a.error?.message}`);
      assert.match(a.error?.message ?? '', message);
    };
    expectFailure('sc-slow', 'SCRIPT_TIMEOUT', /within 1 s/);
    expectFailure('sc-exit', 'SCRIPT_EXIT', /exited with code 3[\s\S]*upstream said no/);
    expectFailure('sc-oneline', 'SCRIPT_OUTPUT', /printed 1 line instead of 2/);
    expectFailure('sc-nourl', 'SCRIPT_OUTPUT', /"latest-build" as line 1, which is not a URL/);
    assert.equal(r.json?.summary.failed, 4);
    // check never fetches what a script names.
    assert.equal(requestsTo(e.sim, '/files/').length, 0);

    // The human output shows the script's stderr too.
    const human = await runCli(['check', 'sc-exit'], { env: cliEnv(h) });
    assert.equal(human.code, 1);
    assert.match(human.stdout, /sc-exit[\s\S]*upstream said no/);
  });
});
