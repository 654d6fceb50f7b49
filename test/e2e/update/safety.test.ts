// Losing a working app: truncated downloads, neighbours' temp files, files we did not install, a
// kill between the committing rename and the state save, damaged state, leftovers of the lock.
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { deadPid } from '../../helpers/dead-pid.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { partialDownloads, tempFiles } from '../../helpers/temp-files.js';
import { publish, startCli, waitFor, type World, useUpdateSuite } from './harness.js';

const PREVIOUS = '.appimage-keeper-previous';

void describe('update: safety of installed versions', { concurrency: true }, () => {
  const suite = useUpdateSuite();

  async function installed(app: string, version: string, extra = ''): Promise<World> {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe(app, extra);
    await publish(suite.sim, app, version);
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    return w;
  }

  void test('a truncated AppImage whose size matches what was announced is refused; v1 keeps working', async () => {
    const w = await installed('cut', '1.0.0');
    const full = await fixtureAppImage('cut', '2.0.0');
    // A 2,000-byte prefix, published with that size (as a script or a size-less link would give it).
    await publish(suite.sim, 'cut', '2.0.0', { body: full.subarray(0, 2000) });
    const run = await w.update();
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const o = appOf(run, 'cut');
    assert.equal(o.status, 'failed');
    assert.equal(o.error?.code, 'VERIFY_TRUNCATED');
    assert.equal(await execInstalled(join(w.storageDir, 'cut.AppImage')), 'cut 1.0.0');
    assert.equal((await w.state()).apps.cut?.installed?.version, '1.0.0');
    assert.deepEqual(await tempFiles(w.storageDir), []);
  });

  void test("apps sharing a name prefix, in two config dirs sharing a storage_dir, keep each other's downloads", async () => {
    const a = await suite.world('manage_desktop_files: false');
    const b = await suite.world('manage_desktop_files: false');
    await a.forgeRecipe('big-x');
    await b.forgeRecipe('big', `storage_dir: ${a.storageDir}`);
    const slow = await publish(suite.sim, 'big-x', '1.0.0');
    await publish(suite.sim, 'big', '1.0.0');
    // About 3 s for big-x's file: b's whole run happens while a is writing its .part file.
    suite.sim.fault(slow.path, { throttleBytesPerSec: 2048, methods: ['GET'] });
    const bg = startCli(['--json', 'update'], a.env);
    await waitFor('big-x downloading', async () => {
      const partials = await partialDownloads(a.env);
      return partials.length > 0 ? partials : undefined;
    });
    const other = await b.update();
    assert.equal(other.code, 0, other.stdout + other.stderr);
    assert.equal(appOf(other, 'big').status, 'updated');
    const done = await bg.done;
    assert.equal(done.code, 0, done.stdout + done.stderr);
    assert.equal(await execInstalled(join(a.storageDir, 'big-x.AppImage')), 'big-x 1.0.0');
    assert.equal(await execInstalled(join(a.storageDir, 'big.AppImage')), 'big 1.0.0');
  });

  void test('a file we did not install at the target is kept under a new name, never overwritten', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('mine');
    const foreign = Buffer.from('#!/bin/sh\necho the user built this\n');
    const target = join(w.storageDir, 'mine.AppImage');
    await writeFile(target, foreign);
    await publish(suite.sim, 'mine', '1.0.0');
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const o = appOf(run, 'mine');
    assert.equal(o.status, 'updated');
    assert.ok(o.warnings?.some((m: string) => /not installed by appimage-keeper; kept it as/.test(m)));
    const kept = (await readdir(w.storageDir)).filter((n) => n.startsWith('mine.AppImage.foreign-'));
    assert.equal(kept.length, 1);
    assert.equal(sha256(await readFile(join(w.storageDir, kept[0] ?? ''))), sha256(foreign));
    assert.equal(await execInstalled(target), 'mine 1.0.0');

    // The user replaces our installed file by hand: the next update keeps their file as well.
    const theirs = Buffer.from('#!/bin/sh\necho patched by hand\n');
    await writeFile(target, theirs);
    await publish(suite.sim, 'mine', '2.0.0');
    const again = await w.update();
    assert.equal(again.code, 0, again.stdout + again.stderr);
    const all = (await readdir(w.storageDir)).filter((n) => n.startsWith('mine.AppImage.foreign-'));
    assert.equal(all.length, 2);
    const digests = await Promise.all(all.map(async (n) => sha256(await readFile(join(w.storageDir, n)))));
    assert.deepEqual(digests.sort(), [sha256(foreign), sha256(theirs)].sort());
    assert.equal(await execInstalled(target), 'mine 2.0.0');
    // Their file is not "version 1.0.0": it is not offered for rollback.
    assert.equal((await w.state()).apps.mine?.previous, undefined);
  });

  void test('kill -9 between the committing rename and the state save: the previous version survives', async () => {
    const w = await installed('crash', '1.0.0');
    await publish(suite.sim, 'crash', '2.0.0');
    assert.equal((await w.update()).code, 0);
    const target = join(w.storageDir, 'crash.AppImage');
    const slot = join(w.storageDir, PREVIOUS, 'crash.AppImage');
    assert.equal(await execInstalled(slot), 'crash 1.0.0');
    // Try until the kill lands after the rename and before state records it (the window is a few ms
    // wide; the watcher reacts in well under that on most runs).
    let landed = false;
    for (let attempt = 3; attempt < 12 && !landed; attempt++) {
      const version = `${attempt}.0.0`;
      const before = (await w.state()).apps.crash;
      await publish(suite.sim, 'crash', version);
      const bg = startCli(['--json', 'update'], w.env);
      const watcher = watch(w.storageDir, (_event, name) => {
        if (name === 'crash.AppImage') bg.child.kill('SIGKILL');
      });
      const done = await bg.done;
      watcher.close();
      const after = (await w.state()).apps.crash;
      landed =
        done.signal === 'SIGKILL' &&
        after?.installed?.version === before?.installed?.version &&
        (await execInstalled(target)) === `crash ${version}`;
      const rerun = await w.update();
      assert.equal(rerun.code, 0, rerun.stdout + rerun.stderr);
      const state = (await w.state()).apps.crash;
      assert.equal(state?.installed?.version, version);
      assert.equal(await execInstalled(target), `crash ${version}`);
      // The version that was installed before the killed run is the kept previous one, intact.
      assert.equal(state?.previous?.version, before?.installed?.version);
      assert.equal(await execInstalled(slot), `crash ${before?.installed?.version ?? ''}`);
      const rb = await w.cli(['--json', 'rollback', 'crash']);
      assert.equal(rb.code, 0, rb.stdout + rb.stderr);
      assert.equal(await execInstalled(target), `crash ${before?.installed?.version ?? ''}`);
      assert.equal((await w.cli(['unhold', 'crash'])).code, 0);
      const forward = await w.update();
      assert.equal(forward.code, 0, forward.stdout + forward.stderr);
    }
    assert.ok(landed, 'no kill landed between the rename and the state save');
  });

  void test('damaged state: a non-string file does not crash list; a path outside storage_dir is never deleted', async () => {
    const w = await installed('st', '1.0.0');
    const outside = join(w.home.root, 'precious.txt');
    await writeFile(outside, 'not ours');
    const file = join(w.home.stateDir, 'state.json');
    const state = JSON.parse(await readFile(file, 'utf8')) as {
      apps: Record<string, { installed: Record<string, unknown> }>;
    };
    await w.forgeRecipe('broken');
    state.apps.broken = {
      strategy: 'forge',
      installed: { version: '1', identity: 'x', file: 42, url: 'u', size: 1, sha256: 'a', installedAt: 'x' },
    } as never;
    const st = state.apps.st;
    assert.ok(st);
    st.installed.file = outside;
    st.installed.identity = 'stale';
    await writeFile(file, JSON.stringify(state));
    const list = await w.cli(['list']);
    assert.equal(list.code, 0, list.stdout + list.stderr);
    assert.match(list.stderr, /broken.*installed\.file.*set aside/);
    assert.match(list.stdout, /^broken .*not installed/m);
    await publish(suite.sim, 'st', '2.0.0');
    const run = await w.update(['st']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(await readFile(outside, 'utf8'), 'not ours');
    const after = JSON.parse(await readFile(file, 'utf8')) as { setAside?: Record<string, unknown> };
    assert.ok(after.setAside?.broken, 'the invalid entry is kept aside in the file');
  });

  void test('an announced size over max_asset_size or over the free space is refused before downloading', async () => {
    const w = await installed('huge', '1.0.0');
    const body = await fixtureAppImage('huge', '2.0.0');
    const path = '/dl/huge/2.0.0/huge-2.0.0-x86_64.AppImage';
    const url = suite.sim.putAsset(path, body);
    const announce = (size: number): void =>
      suite.sim.hub.setLatest('e2e', 'huge', {
        tag: '2.0.0',
        assets: [{ name: 'huge-2.0.0-x86_64.AppImage', url, size }],
      });
    const gets = (): number => suite.sim.requests.filter((r) => r.method === 'GET' && r.path === path).length;
    announce(5 * 1024 ** 3);
    const big = await w.update();
    assert.equal(big.code, 1, big.stdout + big.stderr);
    assert.equal(appOf(big, 'huge').error?.code, 'ASSET_TOO_LARGE');
    // Allowed by max_asset_size, but far beyond any disk here.
    await w.forgeRecipe('huge', `max_asset_size: ${2 ** 50}`);
    announce(2 ** 49);
    const full = await w.update();
    assert.equal(full.code, 1, full.stdout + full.stderr);
    assert.equal(appOf(full, 'huge').error?.code, 'NO_SPACE');
    assert.equal(gets(), 0, 'nothing was downloaded');
    assert.equal(await execInstalled(join(w.storageDir, 'huge.AppImage')), 'huge 1.0.0');
  });

  void test('lock and state temp files left by a killed run are cleaned by the next run', async () => {
    const w = await installed('lk', '1.0.0');
    const dead = deadPid();
    const leftovers = [
      `lock.${dead}.0123abcd`,
      `lock.stale.${dead}.0123abcd`,
      `.state.json.${dead}.0123abcd.tmp`,
    ];
    for (const n of leftovers) await writeFile(join(w.home.stateDir, n), 'x');
    const live = `lock.${process.ppid}.0123abcd`;
    await writeFile(join(w.home.stateDir, live), 'x');
    const run = await w.update();
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const names = await readdir(w.home.stateDir);
    for (const n of leftovers) assert.ok(!names.includes(n), `${n} was removed`);
    assert.ok(names.includes(live), 'a live process keeps its file');
    await stat(join(w.home.stateDir, 'state.json'));
  });
});
