// ZIP assets (inner_asset_match by name and by path, the *.AppImage fallback) and checksum files
// published next to the asset (`<asset>.sha256`, `SHA256SUMS`), good and bad.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { publish, type World, useUpdateSuite } from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { tempFiles } from '../../helpers/temp-files.js';
import { writeZip } from '../../helpers/zip-writer.js';

void describe('update: ZIP assets and checksum files', { concurrency: true }, () => {
  const suite = useUpdateSuite();
  const world = (): Promise<World> => suite.world('manage_desktop_files: false');

  /** Publishes a ZIP release of `app` and runs one update; returns the app's outcome and world. */
  async function zipRelease(
    app: string,
    entries: { name: string; data: Buffer | string }[],
    recipeExtra = '',
  ) {
    const w = await world();
    await w.forgeRecipe(app, recipeExtra);
    await publish(suite.sim, app, '1.0.0', { assetName: `${app}-1.0.0.zip`, body: writeZip(entries) });
    const run = await w.update();
    return { w, run, o: appOf(run, app) };
  }

  void test('inner_asset_match without "/" matches the entry name (top-level recipe key)', async () => {
    const { run, o } = await zipRelease(
      'zname',
      [
        {
          name: 'build/zname-aarch64.AppImage',
          data: await fixtureAppImage('zname', '1.0.0', { arch: 'aarch64' }),
        },
        { name: 'build/zname-x86_64.AppImage', data: await fixtureAppImage('zname', '1.0.0') },
      ],
      'inner_asset_match: "*-x86_64.AppImage"',
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(o.status, 'updated');
    assert.ok(o.path);
    assert.equal(await execInstalled(o.path), 'zname 1.0.0');
  });

  void test('inner_asset_match with "/" matches the whole path (inside strategy)', async () => {
    const { run, o } = await zipRelease(
      'zpath',
      [
        {
          name: 'aarch64/zpath.AppImage',
          data: await fixtureAppImage('zpath', '1.0.0', { arch: 'aarch64' }),
        },
        { name: 'x86_64/zpath.AppImage', data: await fixtureAppImage('zpath', '1.0.0') },
      ],
      '  inner_asset_match: "x86_64/*.AppImage"',
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(o.status, 'updated');
    assert.ok(o.path);
    assert.equal(await execInstalled(o.path), 'zpath 1.0.0');
  });

  void test('without inner_asset_match the one *.AppImage entry is taken', async () => {
    const { w, run, o } = await zipRelease('zfall', [
      { name: 'README.md', data: '# zfall\n' },
      { name: 'zfall/bin/zfall.AppImage', data: await fixtureAppImage('zfall', '1.0.0') },
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(o.status, 'updated');
    assert.ok(o.path);
    assert.equal(await execInstalled(o.path), 'zfall 1.0.0');
    // Only the AppImage lands in storage_dir: neither the archive nor the README.
    assert.deepEqual((await readdir(w.storageDir)).sort(), ['.appimage-keeper-owners', 'zfall.AppImage']);
  });

  /** Publishes `app` 1.0.0 without a forge digest, with a checksum asset built by `listing`. */
  async function withChecksum(
    app: string,
    fileName: string,
    listing: (hex: string, asset: string) => string,
  ) {
    const w = await world();
    await w.forgeRecipe(app, '', `${app}-*.AppImage`);
    const body = await fixtureAppImage(app, '1.0.0');
    const assetName = `${app}-1.0.0-x86_64.AppImage`;
    const sumsUrl = suite.sim.putAsset(
      `/dl/${app}/sums/${fileName}`,
      Buffer.from(listing(sha256(body), assetName)),
      {
        contentType: 'text/plain',
      },
    );
    await publish(suite.sim, app, '1.0.0', { digest: false, extra: [{ name: fileName, url: sumsUrl }] });
    const run = await w.update();
    return { w, run, o: appOf(run, app), sumsPath: `/dl/${app}/sums/${fileName}` };
  }

  void test('<asset>.sha256 that matches: installed, and the checksum file was fetched', async () => {
    const { run, o, sumsPath } = await withChecksum(
      'sumok',
      'sumok-1.0.0-x86_64.AppImage.sha256',
      (hex, asset) => `${hex}  ${asset}\n`,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(o.status, 'updated');
    assert.ok(suite.sim.requests.some((r) => r.path === sumsPath));
  });

  void test('<asset>.sha256 that does not match: failed with VERIFY_DIGEST, nothing installed', async () => {
    const { w, run, o } = await withChecksum(
      'sumbad',
      'sumbad-1.0.0-x86_64.AppImage.sha256',
      () => `${'ab'.repeat(32)}\n`,
    );
    assert.equal(run.code, 1);
    assert.equal(o.status, 'failed');
    assert.equal(o.error?.code, 'VERIFY_DIGEST');
    assert.deepEqual(await readdir(w.storageDir), []);
  });

  void test('SHA256SUMS listing several files: the asset line is used', async () => {
    const { run, o } = await withChecksum(
      'sumsok',
      'SHA256SUMS',
      (hex, asset) => `${'cd'.repeat(32)}  other-1.0.0.tar.gz\n${hex} *${asset}\n`,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(o.status, 'updated');
  });

  void test('SHA256SUMS with a wrong line for the asset: VERIFY_DIGEST; without a line: CHECKSUM_MISSING', async () => {
    const wrong = await withChecksum(
      'sumswrong',
      'SHA256SUMS',
      (_hex, asset) => `${'ef'.repeat(32)}  ${asset}\n`,
    );
    assert.equal(wrong.run.code, 1);
    assert.equal(wrong.o.error?.code, 'VERIFY_DIGEST');
    assert.deepEqual(await tempFiles(wrong.w.storageDir), []);
    const missing = await withChecksum(
      'sumsnone',
      'SHA256SUMS',
      () => `${'ef'.repeat(32)}  unrelated.AppImage\n`,
    );
    assert.equal(missing.run.code, 1);
    assert.equal(missing.o.error?.code, 'CHECKSUM_MISSING');
    assert.deepEqual(await tempFiles(missing.w.storageDir), []);
  });
});
