import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultDesktopEntry, makeAppImage } from '../../fixtures/make-appimage.js';
import {
  getExec,
  getGroup,
  getString,
  MAIN_GROUP,
  parseDesktopEntry,
} from '../../src/appimage/desktop-entry.js';
import {
  integrateDesktop as integrateDesktopOrSkip,
  isOurDesktopFile,
  readAppImageMetadata,
  removeIntegration,
  type IntegrateOptions,
  type IntegrationRecord,
} from '../../src/install/desktop-integration.js';
import { snapshotDir, tempDir } from '../appimage/helpers.js';

/** Integrates an image whose entry is installed (fails the test when it was skipped). */
async function integrateDesktop(
  o: IntegrateOptions,
): Promise<Awaited<ReturnType<typeof integrateDesktopOrSkip>> & { record: IntegrationRecord }> {
  const res = await integrateDesktopOrSkip(o);
  const { record } = res;
  if (!record) throw new Error(`no entry installed: ${res.placement.skipped ?? '?'}`);
  return { ...res, record };
}

const FOREIGN_DESKTOP = '[Desktop Entry]\nType=Application\nName=Someone else\nExec=true\n';
const FOREIGN_ICON = Buffer.from('not ours');

function validate(file: string): void {
  const res = spawnSync('desktop-file-validate', [file], { encoding: 'utf8' });
  assert.equal(res.status, 0, res.stdout + res.stderr);
  assert.doesNotMatch(res.stdout, /error/i, res.stdout);
}

void describe('desktop integration', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  let data: string;
  let apps: string;
  let n = 0;

  before(async () => {
    tmp = await tempDir();
    apps = join(tmp.dir, 'apps');
    await mkdir(apps);
  });
  after(() => tmp.cleanup());

  /** A fresh data home shaped like a real one: the base dirs exist and hold someone else's files. */
  async function freshDataHome(): Promise<string> {
    const dir = join(tmp.dir, `data-${n++}`);
    await mkdir(join(dir, 'applications'), { recursive: true });
    await mkdir(join(dir, 'icons', 'hicolor', '48x48', 'apps'), { recursive: true });
    await writeFile(join(dir, 'applications', 'other.desktop'), FOREIGN_DESKTOP);
    await writeFile(join(dir, 'icons', 'hicolor', '48x48', 'apps', 'other.png'), FOREIGN_ICON);
    return dir;
  }

  async function appImage(
    name: string,
    version: string,
    extra: Partial<Parameters<typeof makeAppImage>[0]> = {},
  ): Promise<string> {
    const file = join(apps, `${name}-${version}-${n++}.AppImage`);
    await makeAppImage({ outFile: file, name, version, ...extra });
    return file;
  }

  function opts(appImagePath: string, more: Partial<IntegrateOptions> = {}): IntegrateOptions {
    return {
      appName: 'hello',
      appImagePath,
      execPath: appImagePath,
      dataHome: data,
      execArgs: [],
      env: {},
      ...more,
    };
  }

  void test('integrate installs a valid, rewritten entry and its icon; remove restores the data dir exactly', async () => {
    data = await freshDataHome();
    const before = await snapshotDir(tmp.dir);
    const file = await appImage('hello', '1.0.0');
    const { record, warnings } = await integrateDesktop(opts(file));
    assert.deepEqual(warnings, []);
    assert.equal(record.desktopId, 'hello');
    assert.equal(record.desktopFile, join(data, 'applications', 'hello.desktop'));
    assert.deepEqual(record.icons, [
      join(data, 'icons', 'hicolor', '256x256', 'apps', 'appimage-keeper-hello.png'),
    ]);
    validate(record.desktopFile);

    const text = await readFile(record.desktopFile, 'utf8');
    assert.ok(isOurDesktopFile(text));
    const entry = parseDesktopEntry(text);
    assert.deepEqual(getExec(getGroup(entry, MAIN_GROUP)), [file, '%U']);
    assert.equal(getString(entry, MAIN_GROUP, 'TryExec'), file);
    assert.equal(getString(entry, MAIN_GROUP, 'Icon'), 'appimage-keeper-hello');
    assert.equal(getString(entry, MAIN_GROUP, 'X-AppImage-Keeper-App'), 'hello');
    assert.equal(getString(entry, MAIN_GROUP, 'X-AppImage-Version'), '1.0.0');
    assert.equal(getString(entry, MAIN_GROUP, 'Name', 'de'), 'hello (de)');
    assert.deepEqual(getExec(getGroup(entry, 'Desktop Action new-window')), [file, '--new-window', '%U']);
    assert.match(text, /^# Desktop entry of the fixture app\n/);
    const icon = await readFile(record.icons[0] ?? '');
    assert.equal(icon.toString('latin1', 1, 4), 'PNG');

    const removed = await removeIntegration(record, 'hello');
    assert.deepEqual(removed.removed.sort(), [record.desktopFile, ...record.icons].sort());
    assert.deepEqual(removed.skipped, []);
    const afterRemoval = await snapshotDir(tmp.dir);
    afterRemoval.delete(file.slice(tmp.dir.length + 1));
    assert.deepEqual(afterRemoval, before);
  });

  void test('Exec keeps arguments and field codes, puts execArgs before the field codes, wraps env, and stays valid', async () => {
    data = await freshDataHome();
    const file = await appImage('hello', '1.0.0');
    const execPath = join(tmp.dir, 'My Apps', 'hello "quoted" $x.AppImage');
    const { record } = await integrateDesktop(
      opts(file, {
        execPath,
        execArgs: ['--ozone-platform=wayland', '--scale=150%'],
        env: { GDK_BACKEND: 'wayland', MSG: 'a b\\c' },
      }),
    );
    validate(record.desktopFile);
    const entry = parseDesktopEntry(await readFile(record.desktopFile, 'utf8'));
    assert.deepEqual(getExec(getGroup(entry, MAIN_GROUP)), [
      'env',
      'GDK_BACKEND=wayland',
      'MSG=a b\\c',
      execPath,
      '--ozone-platform=wayland',
      '--scale=150%%',
      '%U',
    ]);
    assert.deepEqual(getExec(getGroup(entry, 'Desktop Action new-window'))?.slice(3), [
      execPath,
      '--new-window',
      '--ozone-platform=wayland',
      '--scale=150%%',
      '%U',
    ]);
    assert.equal(getString(entry, MAIN_GROUP, 'TryExec'), execPath);
    await removeIntegration(record, 'hello');
  });

  void test('never overwrites foreign files: falls back to our own id, refuses when even that is taken', async () => {
    data = await freshDataHome();
    const file = await appImage('hello', '1.0.0');
    const upstream = join(data, 'applications', 'hello.desktop');
    await writeFile(upstream, FOREIGN_DESKTOP);
    const { record } = await integrateDesktop(opts(file));
    assert.equal(record.desktopId, 'appimage-keeper-hello');
    assert.equal(await readFile(upstream, 'utf8'), FOREIGN_DESKTOP);
    validate(record.desktopFile);
    await removeIntegration(record, 'hello');

    await writeFile(join(data, 'applications', 'appimage-keeper-hello.desktop'), FOREIGN_DESKTOP);
    const hashed = await integrateDesktop(opts(file));
    assert.match(hashed.record.desktopId, /^appimage-keeper-hello-[0-9a-f]{8}$/);
    await removeIntegration(hashed.record, 'hello');
    await writeFile(hashed.record.desktopFile, FOREIGN_DESKTOP);
    await assert.rejects(integrateDesktop(opts(file)), { code: 'DESKTOP_FILE_CONFLICT' });
    assert.equal(
      await readFile(join(data, 'applications', 'appimage-keeper-hello.desktop'), 'utf8'),
      FOREIGN_DESKTOP,
    );
  });

  void test('a foreign file at our icon path is left alone, with a warning', async () => {
    data = await freshDataHome();
    const file = await appImage('hello', '1.0.0');
    const iconPath = join(data, 'icons', 'hicolor', '256x256', 'apps', 'appimage-keeper-hello.png');
    await mkdir(join(iconPath, '..'), { recursive: true });
    await writeFile(iconPath, FOREIGN_ICON);
    const { record, warnings } = await integrateDesktop(opts(file));
    assert.deepEqual(record.icons, []);
    assert.match(warnings.join('\n'), /not overwriting/);
    assert.deepEqual(await readFile(iconPath), FOREIGN_ICON);
    const entry = parseDesktopEntry(await readFile(record.desktopFile, 'utf8'));
    assert.equal(getString(entry, MAIN_GROUP, 'Icon'), 'hello');
    await removeIntegration(record, 'hello');
    assert.deepEqual(await readFile(iconPath), FOREIGN_ICON);
  });

  void test('an update that changes the desktop id and icon removes the old ones we own', async () => {
    data = await freshDataHome();
    const v1 = await appImage('hello', '1.0.0');
    const first = await integrateDesktop(opts(v1));
    // Same id again: files replaced in place, nothing left behind.
    const again = await integrateDesktop(opts(v1, { previous: first.record }));
    assert.deepEqual(again.record, first.record);

    const v2 = join(apps, 'hello-2.0.AppImage');
    await makeAppImage({
      outFile: v2,
      name: 'hello',
      version: '2.0',
      icon: 'svg',
      desktop: false,
      extraFiles: { 'org.example.Hello.desktop': defaultDesktopEntry('hello', '2.0') },
    });
    const second = await integrateDesktop(opts(v2, { previous: first.record }));
    assert.equal(second.record.desktopId, 'org.example.Hello');
    assert.deepEqual(second.record.icons, [
      join(data, 'icons', 'hicolor', 'scalable', 'apps', 'appimage-keeper-hello.svg'),
    ]);
    validate(second.record.desktopFile);
    const snap = await snapshotDir(data);
    assert.deepEqual([...snap.keys()].filter((k) => snap.get(k)?.type === 'file').sort(), [
      'applications/org.example.Hello.desktop',
      'applications/other.desktop',
      'icons/hicolor/48x48/apps/other.png',
      'icons/hicolor/scalable/apps/appimage-keeper-hello.svg',
    ]);
    assert.ok(!snap.has('icons/hicolor/256x256'), 'emptied size directory pruned');
    await removeIntegration(second.record, 'hello');
  });

  void test('removal skips files that are not ours and reports missing ones', async () => {
    data = await freshDataHome();
    const file = await appImage('hello', '1.0.0');
    const { record } = await integrateDesktop(opts(file));
    // The user took the entry over: our mark is gone.
    await writeFile(record.desktopFile, FOREIGN_DESKTOP);
    const foreign = join(data, 'applications', 'other.desktop');
    const res = await removeIntegration(
      {
        ...record,
        icons: [...record.icons, foreign, join(data, 'gone.png')],
      },
      'hello',
    );
    assert.deepEqual(res.removed, record.icons);
    assert.deepEqual(res.skipped.sort(), [foreign, join(data, 'gone.png'), record.desktopFile].sort());
    assert.equal(await readFile(record.desktopFile, 'utf8'), FOREIGN_DESKTOP);
    assert.equal(await readFile(foreign, 'utf8'), FOREIGN_DESKTOP);
    const again = await removeIntegration(
      { ...record, desktopFile: join(data, 'applications', 'nothing.desktop') },
      'hello',
    );
    assert.deepEqual(
      again.missing.sort(),
      [join(data, 'applications', 'nothing.desktop'), ...record.icons].sort(),
    );
  });

  void test('hostile images: escaping icon links, odd desktop names; nothing is written outside the data dir', async () => {
    data = await freshDataHome();
    const before = await snapshotDir(tmp.dir);
    const file = join(tmp.dir, 'evil.AppImage');
    await makeAppImage({
      outFile: file,
      name: 'evil',
      version: '6.6.6',
      icon: false,
      desktop: false,
      extraFiles: {
        'bad name!.desktop': defaultDesktopEntry('evil', '6.6.6').replace(
          'Icon=evil',
          'Icon=../../../../etc/passwd',
        ),
      },
      symlinks: {
        '.DirIcon': '../../../../etc/hostname',
        'passwd.png': '/etc/passwd',
        'usr/share/icons/hicolor/128x128/apps/passwd.png': '../../../../../../../../etc/passwd',
      },
    });
    const { record, warnings } = await integrateDesktop(opts(file, { appName: '../../evil' }));
    assert.equal(record.desktopFile, join(data, 'applications', 'appimage-keeper-evil.desktop'));
    assert.deepEqual(record.icons, []);
    assert.match(warnings.join('\n'), /points (outside|to the absolute path)/);
    validate(record.desktopFile);
    const afterIntegration = await snapshotDir(tmp.dir);
    for (const key of afterIntegration.keys()) {
      if (!before.has(key))
        assert.ok(key === 'evil.AppImage' || key.startsWith(data.slice(tmp.dir.length + 1) + '/'), key);
    }
    await removeIntegration(record, '../../evil');
  });

  void test('several desktop files: the app name picks one; metadata reports version and icon', async () => {
    data = await freshDataHome();
    const file = join(apps, 'multi.AppImage');
    await makeAppImage({
      outFile: file,
      name: 'hello',
      version: '3.0',
      desktop: false,
      extraFiles: {
        'aaa.desktop': defaultDesktopEntry('aaa', '0.1'),
        'hello.desktop': defaultDesktopEntry('hello', '3.0'),
        'zzz.desktop': defaultDesktopEntry('zzz', '9.9'),
      },
    });
    const meta = await readAppImageMetadata(file, ['hello']);
    assert.equal(meta.desktopFileName, 'hello.desktop');
    assert.equal(meta.version, '3.0');
    assert.equal(meta.iconPath, 'usr/share/icons/hicolor/256x256/apps/hello.png');
    assert.equal((await readAppImageMetadata(file)).desktopFileName, 'aaa.desktop');
    const { record } = await integrateDesktop(opts(file));
    assert.equal(record.desktopId, 'hello');
    await removeIntegration(record, 'hello');
  });

  void test('an existing MIME cache is refreshed with update-desktop-database', async () => {
    data = await freshDataHome();
    const cache = join(data, 'applications', 'mimeinfo.cache');
    await writeFile(cache, '[MIME Cache]\n');
    const file = await appImage('hello', '1.0.0', {
      desktop: defaultDesktopEntry('hello', '1.0.0').replace(
        'Categories=Utility;',
        'Categories=Utility;\nMimeType=text/x-hello;',
      ),
    });
    const { record } = await integrateDesktop(opts(file));
    assert.match(await readFile(cache, 'utf8'), /text\/x-hello=hello\.desktop/);
    await removeIntegration(record, 'hello');
    assert.doesNotMatch(await readFile(cache, 'utf8'), /text\/x-hello/);
  });
});
