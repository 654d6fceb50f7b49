// min_release_age: a release younger than the cooldown is `deferred` (exit 0, nothing downloaded,
// installed state untouched) until its age (publication time, Last-Modified, or first sight) is reached.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { sha256 } from '../../helpers/sha256.js';
import type { UpdateAppJson, UpdateJson } from '../../helpers/update-json.js';
import type { CheckJson } from '../check/helpers.js';
import { useUpdateSuite, type World } from './harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function appOf(json: UpdateJson | CheckJson | undefined, name: string): UpdateAppJson {
  const app = (json?.apps as UpdateAppJson[] | undefined)?.find((a) => a.name === name);
  assert.ok(app, `${name} in ${JSON.stringify(json)}`);
  return app;
}

interface CooldownState {
  apps: Record<string, { installed?: { version: string }; lastError?: unknown; firstSeen?: { at: string } }>;
}

void describe('update: min_release_age', () => {
  const suite = useUpdateSuite();

  /** Publishes `version` of e2e/<app> on the hub with this publication time. */
  async function publishAt(app: string, version: string, publishedAt: Date): Promise<string> {
    const body = await fixtureAppImage(app, version);
    const path = `/e2e/${app}/releases/download/${version}/${app}-${version}-x86_64.AppImage`;
    const url = suite.sim.putAsset(path, body);
    suite.sim.hub.setLatest('e2e', app, {
      tag: version,
      publishedAt,
      assets: [{ name: `${app}-${version}-x86_64.AppImage`, url, digest: `sha256:${sha256(body)}` }],
    });
    return path;
  }

  const assetRequests = (path: string): number =>
    suite.sim.requests.filter((r) => r.path === path && r.method === 'GET').length;

  void test('a hub release 1 h old waits 3 d: deferred with eligible_at, exit 0, nothing downloaded; --force takes it', async () => {
    const w = await suite.world('manage_desktop_files: false\nmin_release_age: 3d');
    await w.forgeRecipe('young');
    const published = new Date(Math.floor((Date.now() - HOUR) / 1000) * 1000);
    const path = await publishAt('young', '1.8.0', published);

    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const young = appOf(run.json, 'young');
    assert.equal(young.status, 'deferred');
    assert.equal(young.eligible_at, new Date(published.getTime() + 3 * DAY).toISOString());
    assert.equal(young.error, null);
    assert.equal(run.json?.summary.deferred, 1);
    assert.equal(run.json?.summary.updated, 0);
    assert.equal(assetRequests(path), 0, 'a deferred release is not downloaded');
    const state = (await w.state()) as unknown as CooldownState;
    assert.equal(state.apps.young?.installed, undefined, 'nothing installed');
    assert.equal(state.apps.young?.lastError, undefined, 'a deferral is not a failure');

    const human = await w.cli(['update']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      /^deferred\s+young: 1\.8\.0 published 1 h ago, eligible in 2 d 2[23] h \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/m,
    );
    assert.match(human.stdout, /0 updated, 0 up to date, 1 deferred, 0 rate-limited, 0 failed, 0 skipped/);
    const quiet = await w.cli(['-q', 'update']);
    assert.equal(quiet.stdout + quiet.stderr, '', 'a timer run with only a deferral prints nothing');

    const check = await w.cli(['--json', 'check', '--exit-code']);
    assert.equal(check.code, 0, 'a deferred app is not an update check --exit-code counts');
    const checked = appOf(check.json as CheckJson, 'young');
    assert.equal(checked.status, 'deferred');
    assert.equal(checked.eligible_at, young.eligible_at);
    assert.equal((check.json as CheckJson).summary.deferred, 1);
    assert.equal(assetRequests(path), 0);

    const forced = await w.update(['--force', 'young']);
    assert.equal(forced.code, 0, forced.stdout + forced.stderr);
    assert.equal(appOf(forced.json, 'young').status, 'updated');
    assert.equal(assetRequests(path), 1);
    assert.equal(((await w.state()) as unknown as CooldownState).apps.young?.installed?.version, '1.8.0');
  });

  void test('an older release installs; a recipe can set its own cooldown, or turn the global one off', async () => {
    const w = await suite.world('manage_desktop_files: false\nmin_release_age: 1w');
    await w.forgeRecipe('seasoned');
    await w.forgeRecipe('strict', 'min_release_age: 30d');
    await w.forgeRecipe('eager', 'min_release_age: 0');
    await publishAt('seasoned', '2.0.0', new Date(Date.now() - 8 * DAY));
    await publishAt('strict', '2.0.0', new Date(Date.now() - 8 * DAY));
    await publishAt('eager', '2.0.0', new Date(Date.now() - 60_000));
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(appOf(run.json, 'seasoned').status, 'updated');
    assert.equal(appOf(run.json, 'strict').status, 'deferred');
    assert.equal(appOf(run.json, 'eager').status, 'updated');

    // A new, young release of an installed app: deferred, the installed version stays.
    await publishAt('seasoned', '2.1.0', new Date(Date.now() - HOUR));
    const again = await w.update();
    const seasoned = appOf(again.json, 'seasoned');
    assert.equal(seasoned.status, 'deferred');
    assert.equal(seasoned.from_version, '2.0.0');
    assert.equal(seasoned.to_version, '2.1.0');
    assert.equal(((await w.state()) as unknown as CooldownState).apps.seasoned?.installed?.version, '2.0.0');
  });

  void test('a publication time in the future counts from first sight, and -v says so', async () => {
    const w = await suite.world('manage_desktop_files: false\nmin_release_age: 12h');
    await w.forgeRecipe('skewed');
    await publishAt('skewed', '1.0.0', new Date(Date.now() + 30 * DAY));
    const before = Date.now();
    const run = await w.cli(['-v', '--json', 'update']);
    assert.equal(run.code, 0, run.stderr);
    const skewed = appOf(run.json as UpdateJson, 'skewed');
    assert.equal(skewed.status, 'deferred');
    const eligible = Date.parse(skewed.eligible_at ?? '');
    assert.ok(eligible >= before + 12 * HOUR && eligible <= Date.now() + 12 * HOUR, skewed.eligible_at);
    assert.match(
      run.stderr,
      /published time \S+ is in the future; the cooldown counts from when this release was first seen/,
    );
  });

  void test('direct: the age is the Last-Modified of the URL', async () => {
    const w = await suite.world('manage_desktop_files: false\nmin_release_age: 2d');
    const body = await fixtureAppImage('tool', '3.2.1');
    const modified = new Date(Math.floor((Date.now() - 5 * HOUR) / 1000) * 1000);
    const url = suite.sim.putAsset('/direct/tool-latest.AppImage', body, {
      etag: '"tool-77"',
      lastModified: modified,
    });
    await w.recipe(
      'tool',
      `name: tool\nstrategy:\n  strategy: direct\n  url: ${url}\n  check_method: etag\n`,
    );
    const run = await w.update();
    const tool = appOf(run.json, 'tool');
    assert.equal(tool.status, 'deferred', JSON.stringify(tool));
    assert.equal(tool.eligible_at, new Date(modified.getTime() + 2 * DAY).toISOString());
    assert.match(tool.reason ?? '', /last modified 5 h ago/);

    suite.sim.putAsset('/direct/tool-latest.AppImage', body, {
      etag: '"tool-78"',
      lastModified: new Date(Date.now() - 3 * DAY),
    });
    const old = await w.update();
    assert.equal(appOf(old.json, 'tool').status, 'updated');
  });

  void test('script: the age counts from the first time the version was seen, across runs', async () => {
    const w = await suite.world('manage_desktop_files: false\nmin_release_age: 3d');
    const body = await fixtureAppImage('scripted', '4.0');
    const url = suite.sim.putAsset('/dl/scripted-4.0.AppImage', body);
    const recipe = await w.home.writeRecipe(
      'scripted',
      'name: scripted\nstrategy:\n  strategy: script\n  script_path: resolver.sh\n',
    );
    await writeFile(join(dirname(recipe), 'resolver.sh'), `echo ${url}\necho 4.0\n`);
    const seenAt = Date.now();
    const first = await w.update();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const deferred = appOf(first.json, 'scripted');
    assert.equal(deferred.status, 'deferred');
    assert.match(deferred.reason ?? '', /^4\.0 first seen < 1 min ago, eligible in (3 d|2 d 23 h) \(/);
    const eligibleAt = Date.parse(deferred.eligible_at ?? '');
    assert.ok(Math.abs(eligibleAt - (seenAt + 3 * DAY)) < 60_000, deferred.eligible_at);

    // The second run keeps the first sighting: the wait does not restart.
    const second = await w.update();
    assert.equal(appOf(second.json, 'scripted').eligible_at, deferred.eligible_at);
    assert.equal(assetRequests('/dl/scripted-4.0.AppImage'), 0);

    // Four days later (the recorded sighting moved back, as a clock would move forward): it installs.
    await moveFirstSeen(w, 'scripted', -4 * DAY);
    const later = await w.update();
    assert.equal(appOf(later.json, 'scripted').status, 'updated', later.stdout);
  });

  async function moveFirstSeen(w: World, app: string, byMs: number): Promise<void> {
    const file = join(w.home.stateDir, 'state.json');
    const state = JSON.parse(await readFile(file, 'utf8')) as CooldownState;
    const seen = state.apps[app]?.firstSeen;
    assert.ok(seen, `state keeps when ${app} was first seen`);
    seen.at = new Date(Date.parse(seen.at) + byMs).toISOString();
    await writeFile(file, JSON.stringify(state));
  }
});
