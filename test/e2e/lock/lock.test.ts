/**
 * `lock` and `update --locked` / `check --locked` against the sim: the lock pins exact bytes, a
 * locked update ignores newer releases, an app at its locked digest costs no request, bytes that
 * differ fail LOCK_MISMATCH and change nothing, and the file is byte-stable.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { snapshotTree } from '../../helpers/snapshot-tree.js';
import { sha256 } from '../../helpers/sha256.js';
import { appOf } from '../../helpers/json-output.js';
import { runCli } from '../../helpers/run-cli.js';
import { publish, useUpdateSuite, type World } from '../update/harness.js';

/** The part of `check --locked --json` these tests read. */
interface CheckLockedJson {
  apps: { name: string; status: string }[];
  lock: { name: string; status: string }[];
}

/** `lock --json` as these tests read it. */
interface LockJson {
  changed: boolean;
}

const lockPath = (w: World): string => join(w.home.configDir, 'appimage-keeper.lock');

async function lockedWorld(suite: ReturnType<typeof useUpdateSuite>, apps: string[]): Promise<World> {
  const w = await suite.world();
  for (const app of apps) {
    await publish(suite.sim, app, '1.0.0');
    await w.forgeRecipe(app);
  }
  const r = await w.cli(['--json', 'lock']);
  assert.equal(r.code, 0, r.stderr);
  return w;
}

void describe('lock file', () => {
  const suite = useUpdateSuite();

  void test('update --locked installs the locked release, not a newer one; again it sends nothing', async () => {
    const w = await lockedWorld(suite, ['lkalpha', 'lkbeta']);
    const text = await readFile(lockPath(w), 'utf8');
    const first = await publish(suite.sim, 'lkalpha', '2.0.0');
    assert.match(text, /lkalpha:\n {4}source: .*\/e2e\/lkalpha\n {4}version: 1\.0\.0\n {4}tag: 1\.0\.0\n/);
    assert.ok(text.indexOf('lkalpha:') < text.indexOf('lkbeta:'), 'sorted by app');
    assert.doesNotMatch(text, /2\.0\.0/);

    suite.sim.clearRequests();
    const up = await w.update(['--locked']);
    assert.equal(up.code, 0, up.stderr);
    assert.equal(appOf(up, 'lkalpha').status, 'updated');
    assert.equal(appOf(up, 'lkalpha').to_version, '1.0.0');
    assert.equal(appOf(up, 'lkbeta').to_version, '1.0.0');
    const paths = suite.sim.requests.map((r) => r.path);
    assert.ok(
      !paths.some((p) => p.includes('/releases/latest') || p.includes('/repos/')),
      `no release lookup: ${paths.join(' ')}`,
    );
    assert.ok(!paths.includes(first.path), 'the newer asset is not fetched');
    const state = await w.state();
    assert.equal(state.apps.lkalpha?.installed?.version, '1.0.0');

    suite.sim.clearRequests();
    const again = await w.update(['--locked']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(
      again.json?.apps.map((a) => a.status),
      ['up_to_date', 'up_to_date'],
    );
    assert.equal(suite.sim.requests.length, 0, 'an app at its locked digest costs no request');
  });

  void test('update --locked notices an installed file replaced by one of another size and puts the locked bytes back', async () => {
    const w = await lockedWorld(suite, ['lkomega']);
    const published = await publish(suite.sim, 'lkomega', '1.0.0');
    assert.equal((await w.update(['--locked'])).code, 0);
    const file = (await w.state()).apps.lkomega?.installed?.file ?? '';
    // Not hashed on a run at the lock (docs/fleet.md): the recorded size is what tells it apart.
    await writeFile(file, Buffer.concat([published.body, Buffer.from('tampered')]), { mode: 0o755 });
    suite.sim.clearRequests();
    const r = await w.update(['--locked']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(appOf(r, 'lkomega').status, 'updated');
    assert.deepEqual(await readFile(file), published.body);
    assert.deepEqual(
      suite.sim.requests.map((q) => q.path),
      [published.path],
      'only the locked asset is fetched',
    );
  });

  void test('lock twice writes identical bytes; a new release moves only its own entry', async () => {
    const w = await lockedWorld(suite, ['lkgamma', 'lkdelta']);
    const before = await readFile(lockPath(w));
    const again = await runCli<LockJson>(['--json', 'lock'], { env: w.env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.json?.changed, false);
    assert.deepEqual(await readFile(lockPath(w)), before);
    const next = await publish(suite.sim, 'lkgamma', '1.1.0');
    const moved = await runCli<LockJson>(['--json', 'lock'], { env: w.env });
    assert.equal(moved.json?.changed, true);
    const text = await readFile(lockPath(w), 'utf8');
    assert.ok(text.includes(`sha256: ${sha256(next.body)}`));
    const deltaOf = (t: string): string => t.slice(t.indexOf('lkdelta:'), t.indexOf('lkgamma:'));
    assert.equal(deltaOf(text), deltaOf(before.toString('utf8')), 'the other entry is unchanged');
  });

  void test('bytes that differ from the lock fail LOCK_MISMATCH and change nothing', async () => {
    const w = await lockedWorld(suite, ['lkeps']);
    assert.equal((await w.update(['--locked'])).code, 0);
    const text = await readFile(lockPath(w), 'utf8');
    const wrong = text.replace(/sha256: [0-9a-f]{64}/, `sha256: ${'ab'.repeat(32)}`);
    assert.notEqual(wrong, text);
    await writeFile(lockPath(w), wrong);
    const dirs = [w.storageDir, w.symlinkDir, w.home.dataHome];
    const before = await snapshotTree(w.home.root, dirs, {});
    const stateBefore = (await w.state()).apps.lkeps?.installed;
    const r = await w.update(['--locked']);
    assert.equal(r.code, 1);
    assert.equal(appOf(r, 'lkeps').error?.code, 'LOCK_MISMATCH');
    assert.deepEqual(await snapshotTree(w.home.root, dirs, {}), before);
    assert.deepEqual((await w.state()).apps.lkeps?.installed, stateBefore);
  });

  void test('a recipe without an entry fails LOCK_MISSING; an entry without a recipe warns', async () => {
    const w = await lockedWorld(suite, ['lkzeta', 'lketa']);
    await publish(suite.sim, 'lktheta', '1.0.0');
    await w.forgeRecipe('lktheta');
    await rm(join(w.home.appsDir, 'lketa'), { recursive: true });
    const r = await w.update(['--locked']);
    assert.equal(r.code, 1);
    assert.equal(appOf(r, 'lktheta').error?.code, 'LOCK_MISSING');
    assert.equal(appOf(r, 'lkzeta').status, 'updated');
    assert.match(r.stderr, /entry for lketa but there is no recipe/);
  });

  void test('check --locked reports drift apart from what is newer upstream', async () => {
    const w = await lockedWorld(suite, ['lkiota', 'lkkappa']);
    assert.equal((await w.update(['--locked'])).code, 0);
    await publish(suite.sim, 'lkiota', '2.0.0');
    const atLock = await runCli<CheckLockedJson>(['--json', 'check', '--locked'], { env: w.env });
    assert.equal(atLock.code, 0, atLock.stderr);
    assert.equal(appOf(atLock, 'lkiota').status, 'update_available');
    assert.deepEqual(
      atLock.json?.lock.map((d) => d.status),
      ['at_lock', 'at_lock'],
    );
    assert.equal((await w.update(['lkiota'])).code, 0);
    const drift = await w.cli(['check', '--locked']);
    assert.equal(drift.code, 0, drift.stderr);
    assert.match(drift.stdout, /drift from the lock:\n {2}lkiota: installed 2\.0\.0, locked 1\.0\.0/);
    const code = await w.cli(['check', '--locked', '--exit-code']);
    assert.equal(code.code, 10);
  });

  void test('a hostile lock file is refused at file:line:col before any request', async () => {
    const w = await lockedWorld(suite, ['lklambda']);
    const text = await readFile(lockPath(w), 'utf8');
    await writeFile(lockPath(w), text.replace(/url: https?:\/\/\S+/, 'url: file:///etc/passwd'));
    suite.sim.clearRequests();
    const r = await runCli<{ error?: { code: string; message: string } }>(['--json', 'update', '--locked'], {
      env: w.env,
    });
    assert.equal(r.code, 2);
    assert.equal(r.json?.error?.code, 'CONFIG_INVALID');
    assert.match(
      r.json?.error?.message ?? '',
      /appimage-keeper\.lock:\d+:\d+: apps\.lklambda\.url: must be an http\(s\) URL/,
    );
    assert.equal(suite.sim.requests.length, 0);
  });

  void test('lock honours the cooldown and holds: the previous entry stays', async () => {
    const w = await suite.world('min_release_age: 3d');
    const old = new Date(Date.now() - 10 * 86_400_000);
    const at = async (version: string, publishedAt: Date): Promise<void> => {
      const { body } = await publish(suite.sim, 'lkmu', version);
      suite.sim.hub.setLatest('e2e', 'lkmu', {
        tag: version,
        publishedAt,
        assets: [
          {
            name: `lkmu-${version}-x86_64.AppImage`,
            url: `${suite.sim.url}/e2e/lkmu/releases/download/${version}/lkmu-${version}-x86_64.AppImage`,
            digest: `sha256:${sha256(body)}`,
          },
        ],
      });
    };
    await at('1.0.0', old);
    await w.forgeRecipe('lkmu');
    assert.equal((await w.cli(['lock'])).code, 0);
    const before = await readFile(lockPath(w));
    await at('2.0.0', new Date(Date.now() - 3_600_000));
    const young = await runCli<{ apps: { name: string; status: string; eligible_at?: string }[] }>(
      ['--json', 'lock'],
      { env: w.env },
    );
    assert.equal(young.code, 0, young.stderr);
    assert.equal(appOf(young, 'lkmu').status, 'deferred');
    assert.ok(appOf(young, 'lkmu').eligible_at);
    assert.deepEqual(await readFile(lockPath(w)), before, 'a deferred release is not locked');

    // A held app keeps its entry whatever is newer upstream.
    await at('3.0.0', old);
    assert.equal((await w.update(['--locked'])).code, 0);
    const state = JSON.parse(await readFile(join(w.home.stateDir, 'state.json'), 'utf8')) as {
      apps: Record<string, { hold?: boolean }>;
    };
    (state.apps.lkmu ?? {}).hold = true;
    await writeFile(join(w.home.stateDir, 'state.json'), JSON.stringify(state));
    const held = await runCli<{ apps: { name: string; status: string }[] }>(['--json', 'lock'], {
      env: w.env,
    });
    assert.equal(appOf(held, 'lkmu').status, 'kept');
    assert.deepEqual(await readFile(lockPath(w)), before);
  });
});
