/**
 * What `check` reports and what it leaves alone: conditional requests, shared repositories, asset
 * choice, name order, the `--json` shape, exit codes, broken and ignored recipes, and that it never
 * downloads an asset or touches installed files.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import { hostArch } from '../../../src/appimage/elf.js';
import { REPO_ROOT, runCli } from '../../helpers/run-cli.js';
import { snapshotTree } from '../../helpers/snapshot-tree.js';
import {
  app,
  check,
  cliEnv,
  hubRecipe,
  publishHub,
  requestsTo,
  useE2e,
  writeScriptRecipe,
} from './helpers.js';

const HOST_ARCH = hostArch(process.arch);

void describe('check: requests and asset choice', () => {
  const e = useE2e();

  void test('a second check sends If-None-Match and gets 304; a shared repository costs one request', async () => {
    const h = await e.home();
    publishHub(e.sim, 'cond/app', 'v1', ['App-x86_64.AppImage']);
    await h.writeRecipe('one', hubRecipe(e.sim, 'one', 'cond/app'));
    await h.writeRecipe('two', hubRecipe(e.sim, 'two', 'cond/app', { asset_match: 'App-*' }));
    const env = cliEnv(h);
    const path = '/repos/cond/app/releases/latest';
    const answers = (): number[] => e.responses.filter((r) => r.path === path).map((r) => r.status);

    e.sim.clearRequests();
    e.responses.length = 0;
    const first = await check(env);
    assert.deepEqual(
      first.json?.apps.map((a) => [a.name, a.latest_version]),
      [
        ['one', 'v1'],
        ['two', 'v1'],
      ],
    );
    assert.equal(requestsTo(e.sim, path).length, 1, 'two recipes, one request');
    assert.equal(requestsTo(e.sim, path)[0]?.headers['if-none-match'], undefined);
    assert.deepEqual(answers(), [200]);

    e.sim.clearRequests();
    e.responses.length = 0;
    const second = await check(env);
    assert.deepEqual(
      second.json?.apps.map((a) => [a.name, a.status, a.latest_version]),
      [
        ['one', 'update_available', 'v1'],
        ['two', 'update_available', 'v1'],
      ],
    );
    const conditional = requestsTo(e.sim, path);
    assert.equal(conditional.length, 1);
    assert.match(String(conditional[0]?.headers['if-none-match']), /^"[0-9a-f]+"$/);
    assert.deepEqual(answers(), [304]);

    // A new release: the stale validator gets a full answer with the new tag.
    publishHub(e.sim, 'cond/app', 'v2', ['App-x86_64.AppImage']);
    e.responses.length = 0;
    const third = await check(env);
    assert.equal(app(third, 'one').latest_version, 'v2');
    assert.equal(app(third, 'two').latest_version, 'v2');
    assert.deepEqual(answers(), [200]);
  });

  void test('lab and gitea answers are conditional too', async () => {
    const h = await e.home();
    const labUrl = e.sim.putAsset('/cond/lab/L-x86_64.AppImage', Buffer.from('l'));
    e.sim.lab.setLatest('cgrp/lab', { tag: 'l1', assets: [{ name: 'L-x86_64.AppImage', url: labUrl }] });
    await h.writeRecipe(
      'labc',
      stringify({
        name: 'labc',
        lab_release_web_url: e.sim.secondUrl,
        lab_release_api_url: e.sim.labApiUrl,
        strategy: { strategy: 'forge', repository: `${e.sim.secondUrl}/cgrp/lab`, asset_match: '*.AppImage' },
      }),
    );
    e.sim.gitea.setFlavor('gitea');
    const giteaUrl = e.sim.putAsset('/cond/gitea/G-x86_64.AppImage', Buffer.from('g'));
    e.sim.gitea.setLatest('cgit', 'g', { tag: 'g1', assets: [{ name: 'G-x86_64.AppImage', url: giteaUrl }] });
    await h.writeRecipe(
      'giteac',
      stringify({
        name: 'giteac',
        strategy: { strategy: 'forge', repository: `${e.sim.url}/cgit/g`, asset_match: '*.AppImage' },
      }),
    );
    const env = cliEnv(h);
    assert.equal((await check(env)).code, 0);
    e.responses.length = 0;
    e.sim.clearRequests();
    const again = await check(env);
    assert.deepEqual(
      again.json?.apps.map((a) => [a.name, a.latest_version]),
      [
        ['giteac', 'g1'],
        ['labc', 'l1'],
      ],
    );
    const final = (fragment: string): [string | undefined, number | undefined] => {
      const reqs = requestsTo(e.sim, fragment);
      const last = reqs[reqs.length - 1];
      const answer = e.responses.filter((x) => x.path === last?.path).pop();
      return [last?.headers['if-none-match'] === undefined ? undefined : 'if-none-match', answer?.status];
    };
    assert.deepEqual(final('/api/v1/repos/cgit/g/'), ['if-none-match', 304]);
    // The lab permalink redirects to the release; the validator travels along on the same origin.
    assert.deepEqual(final('/releases/l1'), ['if-none-match', 304]);
  });

  void test('asset choice: glob, regex, both, architecture, ambiguous, no match', async () => {
    const h = await e.home();
    const names = [
      'App-1.0-x86_64.AppImage',
      'App-1.0-aarch64.AppImage',
      'App-1.0-x86_64.AppImage.zsync',
      'Other-1.0-x86_64.AppImage',
    ];
    const urls = publishHub(e.sim, 'pick/app', 'v1.0', names);
    const recipes: Record<string, Record<string, unknown>> = {
      glob: { asset_match: 'Other-*.AppImage' },
      regex: { asset_match: undefined, asset_match_regex: '^App-[\\d.]+-aarch64\\.AppImage$' },
      both: { asset_match: 'App-*', asset_match_regex: '.*x86_64\\.AppImage' },
      arch: { asset_match: 'App-*.AppImage' },
      ambiguous: { asset_match: '*-x86_64.AppImage' },
      nomatch: { asset_match: '*.deb' },
    };
    for (const [name, strategy] of Object.entries(recipes)) {
      await h.writeRecipe(name, hubRecipe(e.sim, name, 'pick/app', strategy));
    }
    e.sim.clearRequests();
    const r = await check(cliEnv(h));
    assert.equal(r.code, 1);
    assert.equal(app(r, 'glob').url, urls['Other-1.0-x86_64.AppImage']);
    assert.equal(app(r, 'regex').url, urls['App-1.0-aarch64.AppImage']);
    assert.equal(app(r, 'both').url, urls['App-1.0-x86_64.AppImage']);
    assert.equal(app(r, 'arch').url, urls[`App-1.0-${HOST_ARCH}.AppImage`]);

    const ambiguous = app(r, 'ambiguous');
    assert.equal(ambiguous.status, 'failed');
    assert.equal(ambiguous.error?.code, 'ASSET_AMBIGUOUS');
    assert.match(ambiguous.error?.message ?? '', /App-1\.0-x86_64\.AppImage/);
    assert.match(ambiguous.error?.message ?? '', /Other-1\.0-x86_64\.AppImage/);

    const none = app(r, 'nomatch');
    assert.equal(none.status, 'failed');
    assert.equal(none.error?.code, 'ASSET_NO_MATCH');
    const listed = `${none.error?.message ?? ''} ${none.error?.hint ?? ''}`;
    for (const n of names) assert.ok(listed.includes(n), `${n} listed in: ${listed}`);
    assert.equal(r.json?.summary.failed, 2);
    assert.equal(requestsTo(e.sim, '/repos/pick/app/').length, 1, 'six recipes, one repository, one request');
  });
});

void describe('check: output, exit codes and side effects', () => {
  const e = useE2e();

  void test('name order whatever order answers came in; the --json shape; broken and ignored recipes', async () => {
    const h = await e.home();
    // zeta answers first, alpha last.
    const delays: Record<string, number> = { alpha: 600, mid: 300, zeta: 0 };
    for (const [name, ms] of Object.entries(delays)) {
      publishHub(e.sim, `ord/${name}`, `${name}-1`, [`${name}-x86_64.AppImage`]);
      if (ms) e.sim.fault(`/repos/ord/${name}/releases/latest`, { latencyMs: ms });
    }
    for (const name of ['zeta', 'mid', 'alpha'])
      await h.writeRecipe(name, hubRecipe(e.sim, name, `ord/${name}`));
    await h.writeRecipe('broken', 'name: broken\nstrategy:\n  strategy: forge\n  asset_match: [oops\n');
    await h.writeRecipe('quiet', hubRecipe(e.sim, 'quiet', 'ord/quiet', {}, { ignore: true }));
    const env = cliEnv(h);

    e.responses.length = 0;
    e.sim.clearRequests();
    const r = await check(env);
    assert.equal(r.code, 1, 'the broken recipe fails the run');
    assert.equal(r.stdout.trimEnd().split('\n').length, 1, 'one JSON document on stdout');
    const answered = e.responses
      .filter((x) => x.path.startsWith('/repos/ord/'))
      .map((x) => x.path.split('/')[3]);
    assert.equal(answered.length, 3);
    assert.ok(
      answered.indexOf('zeta') < answered.indexOf('alpha'),
      `answers came in as ${answered.join(', ')}`,
    );

    const json = r.json;
    assert.ok(json);
    assert.equal(json.command, 'check');
    assert.deepEqual(
      json.apps.map((a) => [a.name, a.status]),
      [
        ['alpha', 'update_available'],
        ['broken', 'failed'],
        ['mid', 'update_available'],
        ['quiet', 'skipped'],
        ['zeta', 'update_available'],
      ],
    );
    for (const a of json.apps) {
      for (const key of ['name', 'status', 'installed_version', 'latest_version', 'error', 'retry_at']) {
        assert.ok(key in a, `${a.name} has ${key}`);
      }
    }
    assert.deepEqual(app(r, 'alpha'), {
      ...app(r, 'alpha'),
      installed_version: null,
      latest_version: 'alpha-1',
      error: null,
      retry_at: null,
    });
    const broken = app(r, 'broken');
    assert.equal(broken.latest_version, null);
    assert.ok(broken.error?.code, 'the broken recipe carries an error code');
    assert.match(broken.error?.message ?? '', /broken/);
    assert.deepEqual(json.summary, {
      updated: 0,
      up_to_date: 0,
      update_available: 3,
      deferred: 0,
      rate_limited: 0,
      failed: 1,
      skipped: 1,
    });
    assert.equal(requestsTo(e.sim, '/repos/ord/quiet/').length, 0, 'an ignored app sends nothing');

    const human = await runCli(['check'], { env });
    assert.equal(human.code, 1);
    const order = human.stdout
      .split('\n')
      .map((l) => /\b(alpha|broken|mid|quiet|zeta)\b/.exec(l)?.[1])
      .filter(Boolean);
    assert.deepEqual(order, ['alpha', 'broken', 'mid', 'quiet', 'zeta']);
    assert.match(human.stdout, /3 updates available, 0 up to date, 0 rate-limited, 1 failed, 1 skipped/);

    // Selecting apps by name, and an unknown name.
    const only = await check(env, ['mid']);
    assert.equal(only.code, 0);
    assert.deepEqual(
      only.json?.apps.map((a) => a.name),
      ['mid'],
    );
    const unknown = await check(env, ['mid', 'nope']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.json?.error?.code, 'UNKNOWN_APP');
    assert.match(unknown.json?.error?.message ?? '', /nope/);
  });

  void test('never downloads an asset and never changes installed files', async () => {
    const h = await e.home();
    const fixture = (f: string): Promise<Buffer> => readFile(join(REPO_ROOT, 'fixtures', 'demo', f));
    const helloUrl = e.sim.putAsset(
      '/assets/hello-1.0.0-x86_64.AppImage',
      await fixture('hello-1.0.0.AppImage'),
    );
    e.sim.hub.setLatest('inst', 'hello', {
      tag: 'v1.0.0',
      assets: [{ name: 'hello-1.0.0-x86_64.AppImage', url: helloUrl }],
    });
    e.sim.putAsset('/assets/scripted-3.1.AppImage', await fixture('scripted-3.1.AppImage'));
    await h.writeRecipe('hello', hubRecipe(e.sim, 'hello', 'inst/hello'));
    const scriptDir = await writeScriptRecipe(
      h,
      'scripted',
      [
        'printf "%s|%s|%s" "$APP_NAME" "$APP_VERSION" "$APP_ARCH" > seen-env.txt',
        `echo "${e.sim.url}/assets/scripted-3.1.AppImage"`,
        'echo 3.1',
      ].join('\n'),
    );
    const env = cliEnv(h);
    const installed = await runCli(['--json', 'update'], { env });
    assert.equal(installed.code, 0, `${installed.stdout}\n${installed.stderr}`);

    const newUrl = e.sim.putAsset(
      '/assets/hello-1.1.0-x86_64.AppImage',
      await fixture('hello-1.1.0.AppImage'),
    );
    e.sim.hub.setLatest('inst', 'hello', {
      tag: 'v1.1.0',
      assets: [{ name: 'hello-1.1.0-x86_64.AppImage', url: newUrl }],
    });
    const before = await snapshotTree(h.root, [h.home, h.dataHome], { metadata: true });
    assert.ok(
      before.some((l) => l.includes('.AppImage ')),
      'update installed files to watch',
    );
    e.sim.clearRequests();
    const r = await check(env);
    assert.equal(r.code, 0, r.stderr);
    const hello = app(r, 'hello');
    assert.equal(hello.status, 'update_available');
    assert.equal(hello.installed_version, 'v1.0.0');
    assert.equal(hello.latest_version, 'v1.1.0');
    const scripted = app(r, 'scripted');
    assert.equal(scripted.status, 'up_to_date');
    assert.equal(scripted.installed_version, '3.1');
    assert.equal(scripted.latest_version, '3.1');
    assert.equal(await readFile(join(scriptDir, 'seen-env.txt'), 'utf8'), `scripted|3.1|${HOST_ARCH}`);

    assert.deepEqual(
      e.sim.requests.filter((q) => q.path.startsWith('/assets/')),
      [],
      'no request for any asset',
    );
    assert.deepEqual(await snapshotTree(h.root, [h.home, h.dataHome], { metadata: true }), before);
  });
});
