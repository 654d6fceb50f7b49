// Checksum sidecars other projects publish (issue 21): FreeCAD's `<asset>-SHA256.txt`,
// `<asset>.sha256.txt`, `<asset>.DIGEST`, and electron-builder's `latest-linux.yml` (base64 SHA-512):
// each verifies the download like `SHA256SUMS`, so a wrong digest fails the update.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { publish, type World, useUpdateSuite } from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import { sha256 } from '../../helpers/sha256.js';

void describe('update: checksum sidecars', { concurrency: true }, () => {
  const suite = useUpdateSuite();
  const world = (): Promise<World> => suite.world('manage_desktop_files: false');

  /** Publishes `app` 1.0.0 without a forge digest and with one sidecar; runs one update. */
  async function withSidecar(
    app: string,
    fileName: (asset: string) => string,
    listing: (body: Buffer, asset: string) => string,
  ) {
    const w = await world();
    await w.forgeRecipe(app, '', `${app}-*.AppImage`);
    const body = await fixtureAppImage(app, '1.0.0');
    const assetName = `${app}-1.0.0-x86_64.AppImage`;
    const name = fileName(assetName);
    const path = `/dl/${app}/sums/${name}`;
    const url = suite.sim.putAsset(path, Buffer.from(listing(body, assetName)), {
      contentType: 'text/plain',
    });
    await publish(suite.sim, app, '1.0.0', { digest: false, extra: [{ name, url }] });
    const run = await w.update();
    return { w, run, o: appOf(run, app), fetched: suite.sim.requests.some((r) => r.path === path) };
  }

  const wrongHex = 'ab'.repeat(32);
  const sha512b64 = (b: Buffer): string => createHash('sha512').update(b).digest('base64');
  const yml = (digest: string, asset: string): string =>
    [
      'version: 1.0.0',
      'files:',
      `  - url: ${asset}`,
      `    sha512: ${digest}`,
      '    size: 1',
      `path: ${asset}`,
      `sha512: ${digest}`,
      "releaseDate: '2026-01-01T00:00:00.000Z'",
      '',
    ].join('\n');

  const sidecars: [string, (asset: string) => string, (hex: string, asset: string) => string][] = [
    ['FreeCAD <asset>-SHA256.txt', (a) => `${a}-SHA256.txt`, (hex, a) => `${hex}  ${a}\n`],
    ['<asset>.sha256.txt', (a) => `${a}.sha256.txt`, (hex) => `${hex}\n`],
    [
      '<asset>.DIGEST',
      (a) => `${a}.DIGEST`,
      (hex, a) => `# SHA1 HASH\n${'1'.repeat(40)}  ${a}\n# SHA256 HASH\n${hex}  ${a}\n`,
    ],
  ];
  for (const [label, fileName, text] of sidecars) {
    void test(`${label}: a matching digest installs; a wrong one is VERIFY_DIGEST, nothing installed`, async () => {
      const slug = label
        .replace(/[^a-z0-9]+/gi, '')
        .toLowerCase()
        .slice(0, 12);
      const ok = await withSidecar(`${slug}ok`, fileName, (body, a) => text(sha256(body), a));
      assert.equal(ok.run.code, 0, ok.run.stdout + ok.run.stderr);
      assert.equal(ok.o.status, 'updated');
      assert.ok(ok.fetched, 'the sidecar was read');
      const bad = await withSidecar(`${slug}bad`, fileName, (_body, a) => text(wrongHex, a));
      assert.equal(bad.run.code, 1, bad.run.stdout + bad.run.stderr);
      assert.equal(bad.o.error?.code, 'VERIFY_DIGEST');
      assert.deepEqual(await readdir(bad.w.storageDir), []);
    });
  }

  void test('electron-builder latest-linux.yml: its base64 sha512 verifies; a wrong one is VERIFY_DIGEST', async () => {
    const ok = await withSidecar(
      'ymlok',
      () => 'latest-linux.yml',
      (body, a) => yml(sha512b64(body), a),
    );
    assert.equal(ok.run.code, 0, ok.run.stdout + ok.run.stderr);
    assert.equal(ok.o.status, 'updated');
    assert.ok(ok.fetched, 'latest-linux.yml was read');
    const bad = await withSidecar(
      'ymlbad',
      () => 'latest-linux.yml',
      (body, a) => yml(sha512b64(Buffer.concat([body, Buffer.from('x')])), a),
    );
    assert.equal(bad.run.code, 1, bad.run.stdout + bad.run.stderr);
    assert.equal(bad.o.error?.code, 'VERIFY_DIGEST');
    assert.match(bad.o.error?.message ?? '', /SHA-512/);
    assert.deepEqual(await readdir(bad.w.storageDir), []);
  });

  void test('latest-linux.yml that lists only another architecture’s file: no check, installed', async () => {
    const r = await withSidecar(
      'ymlother',
      () => 'latest-linux.yml',
      (body) => yml(sha512b64(body), 'ymlother-1.0.0-arm64.AppImage'),
    );
    assert.equal(r.run.code, 0, r.run.stdout + r.run.stderr);
    assert.equal(r.o.status, 'updated');
  });
});
