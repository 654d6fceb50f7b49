import assert from 'node:assert/strict';
import { lstat, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeSimHome, type SimHome } from '../system/sim-home.js';

interface AppRow {
  name: string;
  version: string | null;
  previous_version: string | null;
  held: boolean;
  desktop_entry: string | null;
  desktop_entry_present: boolean;
}
interface UpdateJson {
  apps: { name: string; status: string; reason?: string; to_version: string | null }[];
}

void describe('rollback, hold and unhold after an update', () => {
  let s: SimHome;
  let v100: Buffer;
  let v110: Buffer;
  const cli = <T>(...args: string[]) => runInProcess<T>(args, { env: s.h.env });
  const installedFile = () => join(s.storageDir, 'hello.AppImage');
  const desktopText = async () => {
    const list = await cli<{ apps: AppRow[] }>('--json', 'list');
    const row = list.json?.apps.find((a) => a.name === 'hello');
    assert.ok(row?.desktop_entry, 'a desktop entry is recorded');
    assert.equal(row.desktop_entry_present, true);
    return { row, text: await readFile(row.desktop_entry, 'utf8') };
  };

  before(async () => {
    s = await makeSimHome();
    v100 = await s.publish('1.0.0');
  });
  after(() => s.cleanup());

  void test('nothing to roll back after the first install; unknown app is a usage error', async () => {
    const first = await cli('update');
    assert.equal(first.code, 0, first.stderr);
    const r = await cli<{ error: { code: string; message: string; hint: string } }>(
      '--json',
      'rollback',
      'hello',
    );
    assert.equal(r.code, 1);
    assert.equal(r.json?.error.code, 'ROLLBACK_UNAVAILABLE');
    assert.match(r.json?.error.message ?? '', /no previous version is kept \(installed: v1\.0\.0\)/);
    const unknown = await cli('rollback', 'nope');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown app: nope/);
  });

  void test('rollback restores the file and the desktop entry, holds the app, and a second rollback returns', async () => {
    v110 = await s.publish('1.1.0');
    const up = await cli<UpdateJson>('--json', 'update');
    assert.equal(up.json?.apps[0]?.status, 'updated');
    assert.deepEqual(await readFile(installedFile()), v110);
    assert.match((await desktopText()).text, /X-AppImage-Version=1\.1\.0/);

    const rb = await cli<{ from_version: string; to_version: string; held: boolean; path: string }>(
      '--json',
      'rollback',
      'hello',
    );
    assert.equal(rb.code, 0, rb.stderr);
    assert.equal(rb.json?.from_version, 'v1.1.0');
    assert.equal(rb.json?.to_version, 'v1.0.0');
    assert.deepEqual(await readFile(installedFile()), v100);
    assert.equal(((await stat(installedFile())).mode & 0o111) !== 0, true, 'still executable');
    const { row, text } = await desktopText();
    assert.match(text, /X-AppImage-Version=1\.0\.0/);
    assert.ok(text.includes(installedFile()), 'the entry launches the restored file');
    assert.equal(row.version, 'v1.0.0');
    assert.equal(row.previous_version, 'v1.1.0');
    assert.equal(row.held, true);
    assert.match((await cli('list')).stdout, /^hello .* held/m);

    // Held: update leaves it alone, even though 1.1.0 is the latest.
    const held = await cli<UpdateJson>('--json', 'update');
    assert.equal(held.code, 0);
    assert.equal(held.json?.apps[0]?.status, 'skipped');
    assert.match(held.json?.apps[0]?.reason ?? '', /held/);
    assert.deepEqual(await readFile(installedFile()), v100);

    // Rolling back twice returns to the newer version.
    const again = await cli<{ to_version: string }>('--json', 'rollback', 'hello');
    assert.equal(again.json?.to_version, 'v1.1.0');
    assert.deepEqual(await readFile(installedFile()), v110);
    assert.match((await desktopText()).text, /X-AppImage-Version=1\.1\.0/);
    const back = await cli<{ to_version: string }>('--json', 'rollback', 'hello');
    assert.equal(back.json?.to_version, 'v1.0.0');
  });

  void test('unhold lets update install the latest again; update --force also lifts the hold', async () => {
    const un = await cli<{ apps: { name: string; was_held: boolean }[] }>('--json', 'unhold', 'hello');
    assert.deepEqual(un.json?.apps, [{ name: 'hello', was_held: true }]);
    assert.match((await cli('unhold', 'hello')).stdout, /hello was not held/);
    const up = await cli<UpdateJson>('--json', 'update');
    assert.equal(up.json?.apps[0]?.status, 'updated');
    assert.equal(up.json?.apps[0]?.to_version, 'v1.1.0');
    assert.deepEqual(await readFile(installedFile()), v110);

    await cli('rollback', 'hello');
    const forced = await cli<UpdateJson>('--json', 'update', 'hello', '--force');
    assert.equal(forced.json?.apps[0]?.status, 'updated');
    const list = await cli<{ apps: AppRow[] }>('--json', 'list');
    assert.equal(list.json?.apps[0]?.held, false);
    assert.deepEqual(await readFile(installedFile()), v110);
  });

  void test('a kept previous file that disappeared is a clear error and changes nothing', async () => {
    const prevDir = join(s.storageDir, '.appimage-keeper-previous');
    await rm(join(prevDir, 'hello.AppImage'));
    const r = await cli<{ error: { code: string; hint: string } }>('--json', 'rollback', 'hello');
    assert.equal(r.code, 1);
    assert.equal(r.json?.error.code, 'ROLLBACK_PREVIOUS_MISSING');
    assert.match(r.json?.error.hint ?? '', /nothing was changed/);
    assert.deepEqual(await readFile(installedFile()), v110);
    const list = await cli<{ apps: AppRow[] }>('--json', 'list');
    assert.equal(list.json?.apps[0]?.held, false);
  });
});

void describe('rollback with a versioned file name', () => {
  let s: SimHome;
  const cli = <T>(...args: string[]) => runInProcess<T>(args, { env: s.h.env });
  before(async () => {
    s = await makeSimHome('', 'naming_format: "{name}-{version}.AppImage"\n');
  });
  after(() => s.cleanup());

  void test('a file we did not install at the restore name is kept under another name, never overwritten', async () => {
    await s.publish('1.0.0');
    assert.equal((await cli('update')).code, 0);
    const v110 = await s.publish('1.1.0');
    assert.equal((await cli('update')).code, 0);
    // The user put their own file where the rollback will restore v1.0.0.
    const restoreAt = join(s.storageDir, 'hello-v1.0.0.AppImage');
    await writeFile(restoreAt, 'my own build, not yours');
    const rb = await cli<{ path: string; warnings: string[] }>('--json', 'rollback', 'hello');
    assert.equal(rb.code, 0, rb.stderr);
    assert.equal(rb.json?.path, restoreAt);
    const kept = (await readdir(s.storageDir)).filter((n) => n.startsWith('hello-v1.0.0.AppImage.foreign-'));
    assert.equal(kept.length, 1, 'the foreign file got a second name');
    assert.equal(await readFile(join(s.storageDir, kept[0] ?? ''), 'utf8'), 'my own build, not yours');
    assert.match(
      rb.json?.warnings.join('\n') ?? '',
      /was not installed by appimage-keeper; kept it as .*foreign-/,
    );
    assert.match(await readFile(restoreAt, 'latin1'), /ELF/);
    assert.deepEqual(await readFile(join(s.storageDir, '.appimage-keeper-previous', 'hello.AppImage')), v110);
  });
});

void describe('rollback places the symlink by the rule update uses', () => {
  let s: SimHome;
  after(() => s.cleanup());

  // rollback used to (re)create the link whenever state recorded one, even with create_symlinks
  // turned off and the link removed by the user; the shared place step never recreates it.
  void test('create_symlinks turned off and the link removed: rollback does not recreate it', async () => {
    s = await makeSimHome('', 'create_symlinks: true\n');
    const cli = (...args: string[]) => runInProcess(args, { env: s.h.env });
    const link = join(s.h.env.HOME ?? '', '.local', 'bin', 'hello');
    await s.publish('1.0.0');
    assert.equal((await cli('update')).code, 0);
    await s.publish('1.1.0');
    assert.equal((await cli('update')).code, 0);
    assert.equal(await readlink(link), join(s.storageDir, 'hello.AppImage'));
    const recipe = join(s.h.appsDir, 'hello', 'hello.yml');
    await writeFile(recipe, (await readFile(recipe, 'utf8')).replace('create_symlinks: true', ''));
    await rm(link);
    const rb = await cli('rollback', 'hello');
    assert.equal(rb.code, 0, rb.stderr);
    assert.equal(await lstat(link).catch(() => undefined), undefined, 'no link against the setting');
  });
});
