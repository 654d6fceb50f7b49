/**
 * What one app's download may cost the run, through the built CLI against the sim: a size refused
 * up front leaves no timer behind, a body past the announced size is cut off, a 1 byte/s server
 * is a stall (min_rate), a whole update has a ceiling (app_timeout), and Ctrl-C ends the run with
 * exit 130, the app `interrupted` and the bytes really received counted.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { partialBytes, partialDownloads, tempFiles } from '../../helpers/temp-files.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { publish, startCli, useUpdateSuite, waitFor } from './harness.js';

void describe('update: download limits and interruption', { concurrency: true }, () => {
  const suite = useUpdateSuite();

  void test('a size mismatch fails at once: the process does not linger for stall_timeout', async () => {
    const w = await suite.world();
    // 120 s of stall_timeout: a timer left running would hold the process far past the 30 s below.
    await w.forgeRecipe('mismatch', 'stall_timeout: 120');
    const v1 = await publish(suite.sim, 'mismatch', '1.0.0');
    suite.sim.hub.setLatest('e2e', 'mismatch', {
      tag: '1.0.0',
      assets: [{ name: v1.assetName, url: v1.url, size: v1.body.length + 10 }],
    });
    const r = await w.update([], 30_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(appOf(r, 'mismatch').error?.code, 'DOWNLOAD_SIZE_MISMATCH');
  });

  void test('a chunked body longer than the announced size is cut off there', async () => {
    const w = await suite.world();
    await w.forgeRecipe('endless');
    const v1 = await publish(suite.sim, 'endless', '1.0.0');
    // The real image, then 512 MiB more, with no Content-Length: only the forge's size bounds it.
    const path = '/dl/endless/huge.AppImage';
    const url = suite.sim.putAsset(path, { size: 512 * 1024 * 1024, seed: 9 });
    suite.sim.hub.setLatest('e2e', 'endless', {
      tag: '1.0.0',
      assets: [{ name: v1.assetName, url, size: v1.body.length }],
    });
    suite.sim.fault(path, { chunked: true });
    const r = await w.update([], 30_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const o = appOf(r, 'endless');
    assert.equal(o.error?.code, 'DOWNLOAD_SIZE_MISMATCH');
    assert.match(o.error?.message ?? '', new RegExp(`${v1.body.length} bytes`));
    assert.deepEqual(await tempFiles(w.storageDir), []);
  });

  void test('a direct link with no size at all is cut off at max_asset_size; v1 keeps working', async () => {
    const w = await suite.world('manage_desktop_files: false');
    const path = '/direct/nosize.AppImage';
    const url = suite.sim.putAsset(path, await fixtureAppImage('nosize', '1.0.0'), { etag: '"v1"' });
    await w.recipe(
      'nosize',
      `name: nosize\nmax_asset_size: 4194304\nstrategy:\n  strategy: direct\n  url: ${url}\n  check_method: etag\n`,
    );
    const first = await w.update();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    // The link now streams 512 MiB without Content-Length (HEAD has none either).
    suite.sim.putAsset(path, { size: 512 * 1024 * 1024, seed: 11 }, { etag: '"v2"' });
    suite.sim.fault(path, { chunked: true });
    const r = await w.update([], 30_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const o = appOf(r, 'nosize');
    assert.equal(o.error?.code, 'ASSET_TOO_LARGE');
    assert.match(o.error?.message ?? '', /runs past max_asset_size \(4194304 bytes\)/);
    assert.ok((o.bytes_downloaded ?? 0) <= 4194304, `received ${o.bytes_downloaded} bytes`);
    assert.deepEqual(await tempFiles(w.storageDir), []);
    assert.equal(await execInstalled(join(w.storageDir, 'nosize.AppImage')), 'nosize 1.0.0');
  });

  void test('a server sending 1 byte per second is a stall under min_rate (DOWNLOAD_TOO_SLOW)', async () => {
    const w = await suite.world();
    // The default min_rate (10 KiB/s) over a 2 s stall_timeout; a byte every second is never
    // 2 s of silence, so without the rate rule this download would take hours.
    await w.forgeRecipe('trickle', 'stall_timeout: 2');
    const v1 = await publish(suite.sim, 'trickle', '1.0.0');
    suite.sim.fault(v1.path, { throttleBytesPerSec: 1, methods: ['GET'] });
    const r = await w.update([], 45_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const o = appOf(r, 'trickle');
    assert.equal(o.error?.code, 'DOWNLOAD_TOO_SLOW');
    assert.match(o.error?.message ?? '', /below min_rate 10240 bytes\/s/);
    assert.deepEqual(await tempFiles(w.storageDir), []);
  });

  void test('app_timeout ends an update that is slow but above min_rate (APP_TIMEOUT)', async () => {
    const w = await suite.world();
    await w.forgeRecipe('slowpoke', 'app_timeout: 2\nmin_rate: 0');
    const v1 = await publish(suite.sim, 'slowpoke', '1.0.0');
    suite.sim.fault(v1.path, { throttleBytesPerSec: 200, methods: ['GET'] });
    const r = await w.update([], 30_000);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const o = appOf(r, 'slowpoke');
    assert.equal(o.error?.code, 'APP_TIMEOUT');
    assert.match(o.error?.message ?? '', /app_timeout \(2 s\)/);
    assert.ok((o.bytes_downloaded ?? 0) > 0, 'the bytes received before the timeout are counted');
    assert.deepEqual(await tempFiles(w.storageDir), []);
  });

  void test('Ctrl-C: exit 130, the app is interrupted (not failed), bytes received are counted, v1 intact', async () => {
    const w = await suite.world();
    // Slow on purpose (interrupted mid-download): no minimum rate.
    await w.forgeRecipe('ctrlc', 'min_rate: 0');
    await publish(suite.sim, 'ctrlc', '1.0.0');
    const first = await w.update();
    assert.equal(first.code, 0, first.stderr);
    const installed = (await w.state()).apps.ctrlc?.installed;
    assert.ok(installed);

    const v2 = await publish(suite.sim, 'ctrlc', '2.0.0');
    suite.sim.fault(v2.path, { throttleBytesPerSec: 2048, methods: ['GET'] });
    const bg = startCli(['--json', 'update'], w.env);
    // The bytes arrive in the partial kept in the cache (docs/downloads.md, resume across runs).
    await waitFor('some bytes of the download on disk', async () => {
      const partials = await partialDownloads(w.env);
      return partials.length > 0 ? partials : undefined;
    });
    await new Promise((r) => setTimeout(r, 500));
    bg.child.kill('SIGINT');
    const done = await bg.done;
    assert.equal(done.code, 130, done.stdout + done.stderr);
    const json = JSON.parse(done.stdout) as UpdateJson;
    const o = json.apps.find((a) => a.name === 'ctrlc');
    assert.equal(o?.status, 'interrupted');
    assert.equal(o?.error, null);
    assert.ok((o?.bytes_downloaded ?? 0) > 0, JSON.stringify(o));
    assert.equal(json.summary.interrupted, 1);
    assert.equal(json.summary.failed, 0);
    assert.equal(json.bytes_downloaded, o?.bytes_downloaded);
    assert.equal(await execInstalled(installed.file), 'ctrlc 1.0.0');
    assert.deepEqual((await w.state()).apps.ctrlc?.installed, installed);
    assert.equal((await w.state()).apps.ctrlc?.lastError, undefined, 'an interruption is not a failure');
    assert.deepEqual(await tempFiles(w.storageDir), []);

    // The human summary says so too.
    // The first run's bytes are kept for resuming: wait until the second run adds to them.
    const kept = await partialBytes(w.env);
    const bg2 = startCli(['update'], w.env);
    await waitFor('the second download', async () => ((await partialBytes(w.env)) > kept ? true : undefined));
    bg2.child.kill('SIGINT');
    const human = await bg2.done;
    assert.equal(human.code, 130, human.stderr);
    assert.match(human.stdout, /interrupted\s+ctrlc/);
    assert.match(human.stdout, /1 interrupted/);
  });
});
