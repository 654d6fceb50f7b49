/**
 * Another manager's desktop entries are hostile input when `adopt` retires them: a link in place
 * of an entry, an entry of megabytes, an icon path naming a file elsewhere, a backup name already
 * taken, a link planted at our backup folder, a file back at the original place on restore. Only
 * regular files are moved, only into our folder, never over anything.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { foreignEntriesFor } from '../../src/install/foreign-entries.js';
import { restoreRetired, retireFiles } from '../../src/install/retire.js';

const MD5 = 'a'.repeat(32);

void describe('foreign desktop entries and their retirement', () => {
  let root: string;
  let n = 0;
  const world = async () => {
    const base = join(root, `w${++n}`);
    const applicationsDir = join(base, 'applications');
    const iconsDir = join(base, 'icons');
    const apps = join(base, 'Applications');
    const state = join(base, 'state');
    for (const d of [applicationsDir, iconsDir, apps, state]) await mkdir(d, { recursive: true });
    const file = join(apps, `App_${MD5}.AppImage`);
    await writeFile(file, 'appimage');
    return { base, applicationsDir, iconsDir, apps, state, file };
  };
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ak-foreign-'));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  void test('a link in place of an entry, an entry over the size cap and an entry of another file are not taken', async () => {
    const w = await world();
    const real = join(w.base, 'real.desktop');
    await writeFile(real, `[Desktop Entry]\nName=X\nExec=${w.file}\n`);
    await symlink(real, join(w.applicationsDir, `appimagekit_${MD5}-Linked.desktop`));
    await writeFile(
      join(w.applicationsDir, `appimagekit_${'b'.repeat(32)}-Huge.desktop`),
      `[Desktop Entry]\nExec=${w.file}\nComment=${'x'.repeat(200_000)}\n`,
    );
    await writeFile(
      join(w.applicationsDir, `appimagekit_${'c'.repeat(32)}-Other.desktop`),
      `[Desktop Entry]\nExec=${join(w.apps, 'other.AppImage')}\n`,
    );
    // A hand-written entry for the same file: not a manager's, never ours to move.
    await writeFile(join(w.applicationsDir, 'mine.desktop'), `[Desktop Entry]\nExec=${w.file}\n`);
    assert.deepEqual(await foreignEntriesFor(w.file, w), []);
  });

  void test('a file that is no desktop entry is skipped, never an error', async () => {
    const w = await world();
    await writeFile(join(w.applicationsDir, `appimagekit_${MD5}-Broken.desktop`), 'Exec=no group\n');
    await writeFile(join(w.applicationsDir, 'binary.desktop'), Buffer.from([0, 1, 2, 0xff]));
    assert.deepEqual(await foreignEntriesFor(w.file, w), []);
  });

  void test("Gear Lever's Icon= naming a file outside its .icons folder is left alone", async () => {
    const w = await world();
    const precious = join(w.base, 'precious.txt');
    await writeFile(precious, 'keep');
    await writeFile(
      join(w.applicationsDir, 'gearlever_app_0a1b2c.appimage.desktop'),
      `[Desktop Entry]\nExec="${w.file}" %U\nIcon=${precious}\n`,
    );
    const found = await foreignEntriesFor(w.file, w);
    assert.equal(found.length, 1);
    assert.deepEqual(found[0]?.icons, []);
  });

  void test("a .icons beside the AppImage that is a link is never followed to Gear Lever's icon", async () => {
    const w = await world();
    // Another account's folder: the file named like Gear Lever's icon copy is theirs, not an icon of ours.
    const theirs = join(w.base, 'theirs');
    await mkdir(theirs);
    const name = `App_${MD5}.AppImage`;
    await writeFile(join(theirs, name), 'not an icon');
    await symlink(theirs, join(w.apps, '.icons'));
    await writeFile(
      join(w.applicationsDir, 'gearlever_app_0a1b2c.appimage.desktop'),
      `[Desktop Entry]\nExec="${w.file}" %U\nIcon=${join(w.apps, '.icons', name)}\n`,
    );
    const found = await foreignEntriesFor(w.file, w);
    assert.equal(found.length, 1);
    assert.deepEqual(found[0]?.icons, []);

    // A real .icons folder is still Gear Lever's: its icon is taken.
    const w2 = await world();
    await mkdir(join(w2.apps, '.icons'));
    const icon = join(w2.apps, '.icons', name);
    await writeFile(icon, 'png');
    await writeFile(
      join(w2.applicationsDir, 'gearlever_app_0a1b2c.appimage.desktop'),
      `[Desktop Entry]\nExec="${w2.file}" %U\nIcon=${icon}\n`,
    );
    assert.deepEqual((await foreignEntriesFor(w2.file, w2))[0]?.icons, [icon]);
  });

  void test('retiring never replaces a backup, refuses a link (and a linked backup folder); restoring never replaces a file', async () => {
    const w = await world();
    const entry = join(w.applicationsDir, `appimagekit_${MD5}-App.desktop`);
    await writeFile(entry, 'first');
    const backupDir = join(w.state, 'retired', 'app');
    await mkdir(backupDir, { recursive: true });
    await writeFile(join(backupDir, `appimagekit_${MD5}-App.desktop`), 'older backup');
    const link = join(w.applicationsDir, 'appimagekit_link.desktop');
    await symlink(join(w.base, 'elsewhere'), link);
    const r = await retireFiles([entry, link], w.state, backupDir);
    assert.equal(r.retired.length, 1);
    assert.equal(r.retired[0]?.backup, join(backupDir, `appimagekit_${MD5}-App.desktop.1`));
    assert.equal(await readFile(join(backupDir, `appimagekit_${MD5}-App.desktop`), 'utf8'), 'older backup');
    assert.match(r.errors.join('\n'), /appimagekit_link\.desktop: not a regular file/);
    assert.ok((await lstat(link)).isSymbolicLink());

    // A file back at the original place stays; its backup is kept.
    await writeFile(entry, 'new');
    const back = await restoreRetired(r.retired);
    assert.deepEqual(back.kept, [r.retired[0]?.backup]);
    assert.equal(await readFile(entry, 'utf8'), 'new');

    // A link planted at our backup folder is refused, and the entry stays where it was.
    const w2 = await world();
    const entry2 = join(w2.applicationsDir, `appimagekit_${MD5}-App.desktop`);
    await writeFile(entry2, 'x');
    const outside = join(w2.base, 'outside');
    await mkdir(outside);
    await symlink(outside, join(w2.state, 'retired'));
    const r2 = await retireFiles([entry2], w2.state, join(w2.state, 'retired', 'app'));
    assert.equal(r2.retired.length, 0);
    assert.match(r2.errors.join('\n'), /symbolic link/);
    assert.deepEqual(await readdir(outside), []);
    assert.equal(await readFile(entry2, 'utf8'), 'x');
  });
});
