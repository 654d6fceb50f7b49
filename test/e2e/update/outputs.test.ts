// What `update` prints and returns: --dry-run, --force, listing rules (--show-all, show_all),
// the --json shape, --quiet, exit codes, rate limits, ignore, and direct-strategy versions.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { publish, type World, useUpdateSuite } from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';

const APP_KEYS = ['error', 'from_version', 'name', 'path', 'retry_at', 'status', 'to_version'];
const SUMMARY_KEYS = ['deferred', 'failed', 'rate_limited', 'skipped', 'up_to_date', 'updated'];

void describe('update: outputs, flags and exit codes', { concurrency: true }, () => {
  const suite = useUpdateSuite();
  const world = (globalExtra = ''): Promise<World> =>
    suite.world(`manage_desktop_files: false\n${globalExtra}`);

  void test('dry run, listing rules, --quiet and --force on one workspace', async (t) => {
    const w = await world();
    await Promise.all([w.forgeRecipe('alpha'), w.forgeRecipe('beta')]);
    await publish(suite.sim, 'alpha', '1.0.0');
    await publish(suite.sim, 'beta', '1.0.0');
    const first = await w.update();
    assert.equal(first.code, 0, first.stderr);
    const stateFile = join(w.home.stateDir, 'state.json');

    await t.test('the --json shape', () => {
      const json = first.json;
      assert.ok(json);
      assert.equal(json.command, 'update');
      assert.deepEqual(Object.keys(json.summary).sort(), SUMMARY_KEYS);
      assert.deepEqual(json.summary, {
        updated: 2,
        up_to_date: 0,
        rate_limited: 0,
        failed: 0,
        skipped: 0,
        deferred: 0,
      });
      for (const app of json.apps) {
        for (const key of APP_KEYS) assert.ok(key in app, `${app.name} has ${key}`);
        assert.equal(app.error, null);
        assert.equal(app.retry_at, null);
        assert.equal(app.from_version, null);
        assert.equal(app.to_version, '1.0.0');
        assert.equal(app.path, join(w.storageDir, `${app.name}.AppImage`));
      }
      assert.deepEqual(
        json.apps.map((a) => a.name),
        ['alpha', 'beta'],
      );
    });

    const v2 = await publish(suite.sim, 'alpha', '2.0.0');
    await t.test('--dry-run lists what would be downloaded and writes nothing', async () => {
      const stateBefore = await readFile(stateFile, 'utf8');
      const filesBefore = await readdir(w.storageDir);
      const stateDirBefore = await readdir(w.home.stateDir);
      suite.sim.clearRequests();
      const dry = await w.update(['--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      const alpha = appOf(dry, 'alpha');
      assert.equal(alpha.status, 'skipped');
      assert.match(alpha.reason ?? '', /dry run/);
      assert.equal(alpha.url, v2.url);
      assert.equal(alpha.to_version, '2.0.0');
      assert.equal(appOf(dry, 'beta').status, 'up_to_date');
      const human = await w.cli(['update', '--dry-run']);
      assert.equal(human.code, 0);
      assert.match(human.stdout, /^would update alpha 1\.0\.0 → 2\.0\.0$/m);
      assert.doesNotMatch(human.stdout, /skipped +alpha/);
      assert.match(human.stdout, /^1 would update, 1 up to date, 0 rate-limited, 0 failed, 0 skipped/m);
      assert.ok(human.stdout.includes(v2.url), human.stdout);
      assert.equal(await readFile(stateFile, 'utf8'), stateBefore, 'state.json unchanged');
      assert.deepEqual(await readdir(w.storageDir), filesBefore);
      assert.deepEqual(await readdir(w.home.stateDir), stateDirBefore, 'no lock or other file left');
      assert.equal(
        suite.sim.requests.filter((r) => r.path === v2.path).length,
        0,
        'the asset was not downloaded',
      );
    });

    await t.test('default listing: only changed apps, the summary counts all', async () => {
      const run = await w.cli(['update']);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^updated\s+alpha 1\.0\.0 → 2\.0\.0/m);
      assert.doesNotMatch(run.stdout, /beta/);
      assert.match(run.stdout, /1 updated, 1 up to date, 0 rate-limited, 0 failed, 0 skipped/);
    });

    await t.test('--show-all lists up-to-date apps too', async () => {
      const run = await w.cli(['update', '--show-all']);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^up to date\s+alpha 2\.0\.0$/m);
      assert.match(run.stdout, /^up to date\s+beta 1\.0\.0$/m);
      assert.match(run.stdout, /0 updated, 2 up to date/);
    });

    await t.test('--quiet prints nothing when nothing changed', async () => {
      const run = await w.cli(['--quiet', 'update']);
      assert.equal(run.code, 0);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr, '');
    });

    await t.test('--force reinstalls an up-to-date app', async () => {
      suite.sim.clearRequests();
      const run = await w.update(['--force', 'beta']);
      assert.equal(run.code, 0, run.stderr);
      const beta = appOf(run, 'beta');
      assert.equal(beta.status, 'updated');
      assert.equal(beta.from_version, '1.0.0');
      assert.equal(beta.to_version, '1.0.0');
      assert.ok(suite.sim.requests.some((r) => r.path.startsWith('/e2e/beta/releases/download/1.0.0/')));
      assert.equal(run.json?.apps.length, 1, 'only the named app');
    });
  });

  void test('show_all: true in config.yml lists up-to-date apps', async () => {
    const w = await world('show_all: true');
    await w.forgeRecipe('gamma');
    await publish(suite.sim, 'gamma', '1.0.0');
    assert.equal((await w.update()).code, 0);
    const run = await w.cli(['update']);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^up to date\s+gamma 1\.0\.0$/m);
  });

  void test('rate-limited and ignored apps: exit 0, listed and counted; unknown app: exit 2', async () => {
    const w = await world();
    await w.forgeRecipe('limited');
    await w.forgeRecipe('ignored', 'ignore: true');
    await publish(suite.sim, 'limited', '1.0.0');
    await publish(suite.sim, 'ignored', '1.0.0');
    suite.sim.fault('/repos/e2e/limited/releases/latest', {
      rateLimit: { kind: '403-remaining', resetInSeconds: 900 },
    });
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const limited = appOf(run, 'limited');
    assert.equal(limited.status, 'rate_limited');
    assert.ok(
      limited.retry_at && Date.parse(limited.retry_at) > Date.now(),
      limited.retry_at ?? 'no retry_at',
    );
    const ignored = appOf(run, 'ignored');
    assert.equal(ignored.status, 'skipped');
    assert.match(ignored.reason ?? '', /ignore/);
    assert.deepEqual(run.json?.summary, {
      updated: 0,
      up_to_date: 0,
      rate_limited: 1,
      failed: 0,
      skipped: 1,
      deferred: 0,
    });
    assert.equal(
      suite.sim.requests.filter((r) => r.path.includes('/e2e/ignored/')).length,
      0,
      'an ignored app sends no request',
    );
    const human = await w.cli(['update']);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^rate limited limited until /m);
    assert.doesNotMatch(human.stdout, /^skipped/m, 'skipped apps are not listed by default');
    assert.match(human.stdout, /1 skipped \(ignored: ignored\)/, 'the summary names them');
    const quiet = await w.cli(['--quiet', 'update']);
    assert.equal(quiet.code, 0);
    assert.equal(quiet.stdout + quiet.stderr, '', 'with --quiet a rate limit alone prints nothing');

    const unknown = await w.cli(['update', 'nosuchapp']);
    assert.equal(unknown.code, 2, unknown.stderr);
    assert.match(unknown.stderr, /nosuchapp/);
  });

  void test('direct strategy: the version comes from X-AppImage-Version inside the file', async () => {
    const w = await world();
    const url = suite.sim.putAsset('/direct/tool-latest.AppImage', await fixtureAppImage('tool', '3.2.1'), {
      etag: '"tool-build-77"',
    });
    await w.recipe(
      'tool',
      `name: tool\nstrategy:\n  strategy: direct\n  url: ${url}\n  check_method: etag\n`,
    );
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const tool = appOf(run, 'tool');
    assert.equal(tool.status, 'updated');
    assert.equal(tool.to_version, '3.2.1');
    assert.equal((await w.state()).apps.tool?.installed?.version, '3.2.1');
    const again = await w.update(['--show-all']);
    assert.equal(appOf(again, 'tool').status, 'up_to_date');
    assert.equal(appOf(again, 'tool').to_version, '3.2.1');
  });
});
