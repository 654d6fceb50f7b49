// Desktop ids and icon names under concurrency, at the install layer: apps integrated at once with
// one run's claims never share a file, and the system's entries (sub-directory form too) are not
// shadowed.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { defaultDesktopEntry, makeAppImage } from '../../fixtures/make-appimage.js';
import { DesktopClaims } from '../../src/install/desktop-claims.js';
import { integrateDesktop, markOf, removeIntegration } from '../../src/install/desktop-integration.js';
import { tempDir } from '../appimage/helpers.js';

void describe('desktop claims', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let image: string;
  before(async () => {
    tmp = await tempDir();
    // Every app below installs this one image: same desktop id (tool), same icon.
    image = await imageShipping('tool');
  });
  after(() => tmp.cleanup());

  /** A real AppImage of the app `tool` whose desktop file is `<id>.desktop`. */
  async function imageShipping(id: string): Promise<string> {
    const outFile = join(tmp.dir, `${id}.AppImage`);
    const desktop = defaultDesktopEntry('tool', '1.0');
    await makeAppImage({
      outFile,
      name: 'tool',
      version: '1.0',
      desktop: false,
      extraFiles: { [`${id}.desktop`]: desktop },
    });
    return outFile;
  }

  const integrate = (
    app: string,
    dataHome: string,
    claims: DesktopClaims,
    dataDirs: string[] = [],
    file = image,
  ) =>
    integrateDesktop({
      appName: app,
      appImagePath: file,
      execPath: file,
      dataHome,
      dataDirs,
      claims,
      execArgs: [],
      env: {},
    });

  void test('eight apps at once, one shared id, two names that reduce to the same: no file shared', async () => {
    for (let round = 0; round < 10; round++) {
      const dataHome = join(tmp.dir, `race-${round}`);
      const claims = new DesktopClaims();
      const apps = ['tool', 'tool-beta', 'tool-nightly', 'x+y', 'x_y', 'a', 'b', 'c'];
      const results = await Promise.all(apps.map((a) => integrate(a, dataHome, claims)));
      const records = results.map((r) => r.record);
      const files = records.map((r) => r?.desktopFile);
      const icons = records.flatMap((r) => r?.icons ?? []);
      assert.equal(new Set(files).size, apps.length, files.join('\n'));
      assert.equal(new Set(icons).size, apps.length, icons.join('\n'));
      assert.equal(files.filter((f) => f && basename(f) === 'tool.desktop').length, 1);
      for (const [i, app] of apps.entries()) {
        assert.equal(markOf(await readFile(files[i] ?? '', 'utf8')), app);
      }
      // Removing every app except one leaves exactly that one's files.
      const claimsFromState = DesktopClaims.fromState(
        Object.fromEntries(apps.map((a, i) => [a, { strategy: 'forge', integration: records[i] }])),
      );
      for (const [i, app] of apps.entries()) {
        const record = records[i];
        if (app === 'x_y' || !record) continue;
        const r = await removeIntegration(record, app, claimsFromState);
        assert.deepEqual(r.skipped, []);
      }
      const kept = records[apps.indexOf('x_y')];
      assert.ok(kept);
      assert.equal(markOf(await readFile(kept.desktopFile, 'utf8')), 'x_y');
      for (const icon of kept.icons) assert.ok((await readFile(icon)).length > 0);
    }
  });

  void test('a name recorded in state for another app is not taken', async () => {
    const dataHome = join(tmp.dir, 'state-held');
    const held = join(dataHome, 'applications', 'tool.desktop');
    const claims = DesktopClaims.fromState({
      stable: { strategy: 'forge', integration: { desktopId: 'tool', desktopFile: held, icons: [] } },
    });
    const { record, placement } = await integrate('beta', dataHome, claims);
    assert.equal(record?.desktopId, 'appimage-keeper-beta');
    assert.equal(placement.fallbackReason, 'tool.desktop belongs to app stable');
  });

  void test('an id a system data dir provides, also in sub-directory form, is not used', async () => {
    const system = join(tmp.dir, 'system');
    await mkdir(join(system, 'applications', 'kde'), { recursive: true });
    const nestedImage = await imageShipping('kde-tool');
    await writeFile(join(system, 'applications', 'kde', 'tool.desktop'), defaultDesktopEntry('tool', '0'));
    const dataHome = join(tmp.dir, 'nested');
    const dirs = [join(tmp.dir, 'absent'), system];
    const res = await integrate('kt', dataHome, new DesktopClaims(), dirs, nestedImage);
    assert.equal(res.record?.desktopId, 'appimage-keeper-kt');
    assert.equal(
      res.placement.fallbackReason,
      `kde-tool.desktop is provided by ${join(system, 'applications', 'kde', 'tool.desktop')}`,
    );
    // Without the system entry, the upstream id is used.
    const freeHome = join(tmp.dir, 'nested-free');
    const free = await integrate('kt', freeHome, new DesktopClaims(), [join(tmp.dir, 'absent')], nestedImage);
    assert.equal(free.record?.desktopId, 'kde-tool');
  });
});
