/**
 * Rate limits through the CLI (`respect_rate_limits`): the app is reported
 * `rate_limited` with `retry_at`, the run still exits 0, and while the window is open the next run
 * sends nothing at all unless `respect_rate_limits` is false.
 */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { RateLimitKind } from '../../../sim/index.js';
import { runCli } from '../../helpers/run-cli.js';
import type { TmpHome } from '../../helpers/tmp-home.js';
import {
  app,
  check,
  cliEnv,
  directRecipe,
  hubRecipe,
  publishHub,
  requestsTo,
  useE2e,
  type CheckJson,
} from './helpers.js';

/** `retry_at` is `seconds` from now, give or take a minute (clock and second rounding). */
function assertRetryIn(retryAt: string | null, seconds: number): void {
  assert.ok(retryAt, 'retry_at is set');
  const delta = (Date.parse(retryAt) - Date.now()) / 1000;
  assert.ok(
    Math.abs(delta - seconds) < 60,
    `retry_at ${retryAt} is ${delta.toFixed(0)} s away, expected ~${seconds}`,
  );
}

void describe('check: rate limits', () => {
  const e = useE2e();

  void test('x-ratelimit-reset: reported, exit 0; next run sends nothing; respect_rate_limits false retries', async () => {
    const h = await e.home();
    publishHub(e.sim, 'rl/xreset', 'v2', ['X-x86_64.AppImage']);
    e.sim.fault('/repos/rl/xreset/releases/latest', {
      rateLimit: { kind: '403-remaining', resetInSeconds: 1800 },
      times: 1,
    });
    await h.writeRecipe('xreset', hubRecipe(e.sim, 'xreset', 'rl/xreset'));
    const env = cliEnv(h);

    e.sim.clearRequests();
    const first = await check(env);
    assert.equal(first.code, 0, 'a rate limit is not a failure');
    const limited = app(first, 'xreset');
    assert.equal(limited.status, 'rate_limited');
    assert.equal(limited.error, null);
    assertRetryIn(limited.retry_at, 1800);
    assert.equal(first.json?.summary.rate_limited, 1);
    assert.equal(e.sim.requests.length, 1);

    // A recipe added meanwhile on the same API host was never answered with a limit: it sends its
    // own request; the app that was limited sends nothing while its window is open.
    publishHub(e.sim, 'rl/sibling', 'v1', ['S-x86_64.AppImage']);
    await h.writeRecipe('sibling', hubRecipe(e.sim, 'sibling', 'rl/sibling'));
    e.sim.clearRequests();
    const second = await check(env);
    assert.equal(second.code, 0);
    assert.equal(app(second, 'xreset').status, 'rate_limited');
    assert.equal(app(second, 'xreset').retry_at, limited.retry_at);
    assert.equal(app(second, 'sibling').status, 'update_available');
    assert.deepEqual(
      e.sim.requests.map((q) => q.path),
      ['/repos/rl/sibling/releases/latest'],
      'only the new app sent a request',
    );
    await rm(join(h.appsDir, 'sibling'), { recursive: true });
    e.sim.clearRequests();

    const human = await runCli(['check'], { env });
    assert.equal(human.code, 0);
    assert.match(human.stdout, /rate limited\s+xreset until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    assert.deepEqual(e.sim.requests, []);

    await h.writeRecipe(
      'xreset',
      hubRecipe(e.sim, 'xreset', 'rl/xreset', {}, { respect_rate_limits: false }),
    );
    const third = await check(env);
    assert.equal(third.code, 0);
    assert.equal(app(third, 'xreset').status, 'update_available');
    assert.equal(app(third, 'xreset').latest_version, 'v2');
    assert.equal(e.sim.requests.length, 1, 'the request is attempted despite the window');

    // The success closed the window: an ordinary recipe is checked again too.
    await h.writeRecipe('xreset', hubRecipe(e.sim, 'xreset', 'rl/xreset'));
    e.sim.clearRequests();
    assert.equal(app(await check(env), 'xreset').status, 'update_available');
    assert.equal(e.sim.requests.length, 1);
  });

  const kinds: [RateLimitKind, number][] = [
    ['429-retry-after-seconds', 120],
    ['429-retry-after-date', 7200],
  ];
  for (const [kind, seconds] of kinds) {
    void test(`Retry-After ${kind.endsWith('date') ? 'as an HTTP date' : 'as seconds'}`, async () => {
      const h = await e.home();
      const repo = `rl/${kind}`;
      publishHub(e.sim, repo, 'v1', ['R-x86_64.AppImage']);
      e.sim.fault(`/repos/${repo}/releases/latest`, { rateLimit: { kind, resetInSeconds: seconds } });
      await h.writeRecipe('ra', hubRecipe(e.sim, 'ra', repo));
      const r = await check(cliEnv(h));
      assert.equal(r.code, 0);
      assert.equal(app(r, 'ra').status, 'rate_limited');
      assertRetryIn(app(r, 'ra').retry_at, seconds);
    });
  }

  void test('lab RateLimit-Reset and a rate-limited direct URL', async () => {
    const h: TmpHome = await e.home();
    const url = e.sim.putAsset('/rl/lab/L-x86_64.AppImage', Buffer.from('l'));
    e.sim.lab.setLatest('rl/labproj', { tag: 'l1', assets: [{ name: 'L-x86_64.AppImage', url }] });
    e.sim.fault(/^\/api\/v4\/projects\/rl%2Flabproj\//, {
      rateLimit: { kind: '429-ratelimit-reset', resetInSeconds: 600 },
    });
    await h.writeRecipe(
      'labrl',
      stringify({
        name: 'labrl',
        lab_release_api_url: e.sim.labApiUrl,
        lab_release_web_url: e.sim.secondUrl,
        strategy: {
          strategy: 'forge',
          repository: `${e.sim.secondUrl}/rl/labproj`,
          asset_match: '*.AppImage',
        },
      }),
    );
    // The direct URL lives on the other origin, so the two windows are per host and independent.
    const directUrl = e.sim.putSecondAsset('/rl/direct/D.AppImage', Buffer.from('d'), { etag: '"d"' });
    e.sim.fault('/rl/direct/D.AppImage', {
      rateLimit: { kind: '429-retry-after-seconds', resetInSeconds: 900 },
    });
    await h.writeRecipe('directrl', directRecipe('directrl', directUrl, 'etag'));
    e.sim.clearRequests();
    const r = await check(cliEnv(h));
    assert.equal(r.code, 0);
    assert.equal(app(r, 'labrl').status, 'rate_limited');
    assertRetryIn(app(r, 'labrl').retry_at, 600);
    assert.equal(app(r, 'directrl').status, 'rate_limited');
    assertRetryIn(app(r, 'directrl').retry_at, 900);
    assert.ok(e.sim.requests.length >= 2);

    e.sim.clearRequests();
    const again = await check(cliEnv(h));
    assert.deepEqual(
      again.json?.apps.map((a) => a.status),
      ['rate_limited', 'rate_limited'],
    );
    assert.deepEqual(e.sim.requests, []);
  });

  void test('check --force and update --force try anyway; a changed URL is not held by the old window', async () => {
    const h = await e.home();
    const limitOnce = (): void =>
      e.sim.fault('/repos/rl/forced/releases/latest', {
        rateLimit: { kind: '403-remaining', resetInSeconds: 1800 },
        times: 1,
      });
    publishHub(e.sim, 'rl/forced', 'v3', ['F-x86_64.AppImage']);
    limitOnce();
    await h.writeRecipe('forced', hubRecipe(e.sim, 'forced', 'rl/forced'));
    const env = cliEnv(h);
    assert.equal(app(await check(env), 'forced').status, 'rate_limited');

    e.sim.clearRequests();
    assert.equal(app(await check(env), 'forced').status, 'rate_limited');
    assert.deepEqual(e.sim.requests, [], 'the window holds without --force');

    const forced = await runCli<CheckJson>(['--json', 'check', '--force'], { env });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(app(forced, 'forced').status, 'update_available');
    assert.equal(app(forced, 'forced').latest_version, 'v3');
    assert.equal(e.sim.requests.length, 1, 'check --force sent the request');

    // A new limit, then update --force: it tries, and the answer closes the window.
    limitOnce();
    assert.equal(app(await check(env), 'forced').status, 'rate_limited');
    e.sim.clearRequests();
    const update = await runCli(['--json', 'update', '--force', '--dry-run'], { env });
    assert.equal(update.code, 0, update.stderr);
    assert.equal(requestsTo(e.sim, '/repos/rl/forced/releases/latest').length, 1, 'update --force sent it');

    // The recipe moves to another repository: the old window does not follow it.
    limitOnce();
    assert.equal(app(await check(env), 'forced').status, 'rate_limited');
    publishHub(e.sim, 'rl/renamed', 'v4', ['F-x86_64.AppImage']);
    await h.writeRecipe('forced', hubRecipe(e.sim, 'forced', 'rl/renamed'));
    e.sim.clearRequests();
    const moved = await check(env);
    assert.equal(app(moved, 'forced').status, 'update_available');
    assert.equal(app(moved, 'forced').latest_version, 'v4');
    assert.equal(e.sim.requests.length, 1);
  });
});
