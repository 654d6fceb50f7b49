// Every path built from an app name goes through appFileName, so a hostile name (from a recipe
// that skipped validate, or from state on disk) stays one safe component in its folder. The audit's
// case: the install intent was `<state>/pending/<raw name>.json`, so `../../x` wrote outside.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { appFileName, MAX_FILE_NAME_BYTES } from '../../src/core/file-names.js';
import { ourNames } from '../../src/install/desktop-names.js';
import { iconTargetPath } from '../../src/install/icon-install.js';
import { renderFileName, tempPrefix } from '../../src/install/naming.js';
import { previousPath } from '../../src/install/place.js';
import { placeSymlink } from '../../src/install/symlink.js';
import { ownedTempPath } from '../../src/transfer/download/index.js';
import { clearIntent, readIntent, writeIntent } from '../../src/state/intent.js';
import { snapshotTree } from '../helpers/snapshot-tree.js';

const HOSTILE = [
  '..',
  '.',
  '../cache',
  '../../../victim/v',
  '/abs/olute',
  'a/../../b',
  'ctl\u0001\u001b[2J\u007fx',
  'n'.repeat(300),
  'é'.repeat(150),
  '-rf',
  '.appimage-keeper-previous',
  'Fold App',
  'fold_app',
];

// One component: no separator, not `.` or `..`, not hidden, within the file system's limit.
function assertOneSafeComponent(component: string, what: string): void {
  assert.ok(!component.includes('/') && !component.includes('\0'), `${what}: ${component}`);
  assert.ok(component !== '.' && component !== '..' && !component.startsWith('.'), `${what}: ${component}`);
  assert.ok(Buffer.byteLength(component) <= MAX_FILE_NAME_BYTES, `${what}: ${component.length}`);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(component, /[\u0000-\u001f\u007f]/, what);
}

void describe('app names become one safe file-name component', () => {
  const roots: string[] = [];
  after(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  void test('every name-derived path stays one component inside its folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ak-names-'));
    roots.push(root);
    const storage = join(root, 'storage');
    const icon = { format: 'png', imagePath: 'x.png', data: Buffer.alloc(0), width: 64, height: 64 } as const;
    for (const name of HOSTILE) {
      const safe = appFileName(name);
      assertOneSafeComponent(safe, `appFileName(${JSON.stringify(name)})`);
      const paths: [string, string, string][] = [
        ['file', join(storage, renderFileName('{name}-{version}.AppImage', name, '../1')), storage],
        ['previous', previousPath(storage, name), join(storage, '.appimage-keeper-previous')],
        ['temp', await ownedTempPath(storage, tempPrefix(name), 'part'), storage],
        ...ourNames(name).map((id): [string, string, string] => [
          'desktop',
          join(root, 'applications', `${id}.desktop`),
          join(root, 'applications'),
        ]),
        ['icon', iconTargetPath(root, icon, ourNames(name)[0]), join(root, 'icons/hicolor/64x64/apps')],
      ];
      for (const [what, path, folder] of paths) {
        assert.equal(dirname(path), folder, `${what} of ${JSON.stringify(name)}: ${path}`);
        // Temp and previous names are ours and hidden by design; the part from the name is not.
        if (what !== 'temp') assertOneSafeComponent(basename(path), `${what} of ${JSON.stringify(name)}`);
      }
      const link = await placeSymlink({
        dir: join(root, 'bin'),
        name,
        target: join(storage, 'x'),
        storageDir: storage,
        ours: undefined,
      });
      assert.equal(dirname(link), join(root, 'bin'), link);
      await rm(link);
    }
  });

  void test('install intents of hostile names stay in the pending folder and read back only for their app', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ak-names-'));
    roots.push(root);
    const stateDir = join(root, 'a', 'b', 'state');
    const victim = join(root, 'victim');
    await mkdir(victim, { recursive: true });
    await mkdir(stateDir, { recursive: true });
    await writeFile(join(victim, 'v.json'), 'precious\n');
    await writeFile(join(stateDir, 'cache.json'), '{}\n');
    const outside = async (): Promise<string[]> =>
      (await snapshotTree(root, [root])).filter((l) => !l.includes(' a/b/state/pending'));
    const before = await outside();
    const installed = {
      version: '1',
      identity: 'i',
      file: '/s/x.AppImage',
      url: 'https://example.com/x',
      size: 1,
      sha256: 'a'.repeat(64),
      installedAt: '2026-01-01T00:00:00.000Z',
    };
    for (const app of HOSTILE) {
      await writeIntent(stateDir, {
        app,
        installed,
        previous: undefined,
        staged: undefined,
        oldFile: undefined,
      });
      assert.equal(readIntent(stateDir, app)?.app, app);
      const files = await readdir(join(stateDir, 'pending'));
      assert.equal(files.length, 1, files.join(', '));
      assertOneSafeComponent(files[0] ?? '', `intent of ${JSON.stringify(app)}`);
      // `Fold App` and `fold_app` would share `Fold_App.json` only if their safe names matched in
      // case; validate refuses such pairs, and an intent never reads back for another app.
      for (const other of HOSTILE) if (other !== app) assert.notEqual(readIntent(stateDir, other)?.app, app);
      await clearIntent(stateDir, app);
      assert.deepEqual(await outside(), before, `intent of ${JSON.stringify(app)}`);
    }
    assert.deepEqual(await readdir(join(stateDir, 'pending')), []);
  });
});
