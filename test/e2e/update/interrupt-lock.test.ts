// Two real processes: `kill -9` in the middle of a throttled download (the next run must take the
// stale lock over, clean the temp file and install), and a second run started while the first
// holds the lock (exit 3 naming the holder's pid).
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { publish, startCli, waitFor, type World, useUpdateSuite } from './harness.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { partialDownloads, tempFiles } from '../../helpers/temp-files.js';
import type { UpdateJson } from '../../helpers/update-json.js';

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

void describe('update: interrupted and concurrent runs', { concurrency: true }, () => {
  const suite = useUpdateSuite();
  const world = (): Promise<World> => suite.world();

  void test('kill -9 during a download: v1 intact; the rerun takes the stale lock, cleans up, installs v2', async () => {
    const w = await world();
    // Slow on purpose (killed mid-download): no minimum rate.
    await w.forgeRecipe('killed', 'min_rate: 0');
    await publish(suite.sim, 'killed', '1.0.0');
    const first = await w.update();
    assert.equal(first.code, 0, first.stderr);
    const installed1 = (await w.state()).apps.killed?.installed;
    assert.ok(installed1);

    const v2 = await publish(suite.sim, 'killed', '2.0.0');
    // About 5 s for the whole file: long enough to be killed in the middle.
    suite.sim.fault(v2.path, { throttleBytesPerSec: 1024, methods: ['GET'] });
    const bg = startCli(['--json', 'update'], w.env);
    const lockFile = join(w.home.stateDir, 'lock');
    await waitFor('the partial file of the download', async () => {
      const partials = await partialDownloads(w.env);
      return partials.length > 0 ? partials : undefined;
    });
    bg.child.kill('SIGKILL');
    const killed = await bg.done;
    assert.equal(killed.signal, 'SIGKILL');

    // What kill -9 leaves behind: a lock naming a dead pid and a partial kept in the cache (resumed by
    // the rerun), nothing in storage_dir.
    const owner = JSON.parse(await readFile(lockFile, 'utf8')) as { pid: number };
    assert.equal(owner.pid, bg.child.pid);
    assert.deepEqual(await tempFiles(w.storageDir), []);
    assert.equal((await partialDownloads(w.env)).length, 1);
    assert.equal(await execInstalled(installed1.file), 'killed 1.0.0');
    assert.deepEqual((await w.state()).apps.killed?.installed, installed1);

    suite.sim.clearFaults();
    const rerun = await w.update();
    assert.equal(rerun.code, 0, rerun.stdout + rerun.stderr);
    const o = appOf(rerun, 'killed');
    assert.equal(o.status, 'updated');
    assert.equal(o.from_version, '1.0.0');
    assert.equal(o.to_version, '2.0.0');
    assert.equal(await execInstalled(installed1.file), 'killed 2.0.0');
    assert.deepEqual(await tempFiles(w.storageDir), []);
    assert.deepEqual(await partialDownloads(w.env), [], 'the partial is cleared once downloaded');
    assert.equal(await exists(lockFile), false, 'the lock is released after the rerun');
  });

  void test('a second run while the first holds the lock exits 3 naming its pid', async () => {
    const w = await world();
    await w.forgeRecipe('locked', 'min_rate: 0');
    const v1 = await publish(suite.sim, 'locked', '1.0.0');
    suite.sim.fault(v1.path, { throttleBytesPerSec: 2048, methods: ['GET'] });
    const holder = startCli(['--json', 'update'], w.env);
    const lockFile = join(w.home.stateDir, 'lock');
    await waitFor('the first run to be downloading', async () =>
      (await partialDownloads(w.env)).length > 0 && (await exists(lockFile)) ? true : undefined,
    );
    const second = await w.update();
    assert.equal(second.code, 3, second.stdout + second.stderr);
    const pid = String(holder.child.pid);
    assert.match(second.stdout + second.stderr, new RegExp(`pid ${pid}\\b`));

    const done = await holder.done;
    assert.equal(done.code, 0, done.stderr);
    const json = JSON.parse(done.stdout) as UpdateJson;
    assert.equal(json.summary.updated, 1);
    assert.equal(await exists(lockFile), false);
  });
});
