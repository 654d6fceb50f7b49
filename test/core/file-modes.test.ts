// Managed folders and files get their fixed mode whatever the umask (root's is often 077).
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { makeManagedDir, setManagedMode } from '../../src/core/file-modes.js';
import { ensureDirBelow } from '../../src/core/no-follow.js';

const modeOf = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;

void describe('fixed modes under umask 077', () => {
  let dir: string;
  let saved: number;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-modes-'));
    saved = process.umask(0o077);
  });
  afterEach(async () => {
    process.umask(saved);
    await rm(dir, { recursive: true, force: true });
  });

  void test('makeManagedDir: every folder it creates is 0755; one that existed keeps its mode', async () => {
    await mkdir(join(dir, 'a'));
    await chmod(join(dir, 'a'), 0o750);
    await makeManagedDir(join(dir, 'a', 'b', 'c'));
    assert.equal(await modeOf(join(dir, 'a')), 0o750);
    assert.equal(await modeOf(join(dir, 'a', 'b')), 0o755);
    assert.equal(await modeOf(join(dir, 'a', 'b', 'c')), 0o755);
  });

  void test('ensureDirBelow: new folders below the root get the mode exactly', async () => {
    await ensureDirBelow(dir, join(dir, 'icons', 'hicolor', 'apps'));
    assert.equal(await modeOf(join(dir, 'icons')), 0o755);
    assert.equal(await modeOf(join(dir, 'icons', 'hicolor', 'apps')), 0o755);
    await ensureDirBelow(dir, join(dir, 'private'), 0o700);
    assert.equal(await modeOf(join(dir, 'private')), 0o700);
  });

  void test('setManagedMode: an AppImage copied with mode 0700 becomes 0755, an icon 0644', async () => {
    const app = join(dir, 'x.AppImage');
    await writeFile(app, 'x', { mode: 0o700 });
    await setManagedMode(app, 'appimage');
    assert.equal(await modeOf(app), 0o755);
    await setManagedMode(app, 'icon');
    assert.equal(await modeOf(app), 0o644);
  });
});
