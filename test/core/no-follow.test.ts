// The shared write, delete and cleanup helpers never act through a symlink planted below a managed
// folder, while the managed folder itself may be a link (users put storage on another disk).
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openNewFile } from '../../src/core/no-follow.js';
import { deleteManagedFile } from '../../src/install/managed-delete.js';
import { cleanStaleTemps } from '../../src/transfer/download/index.js';
import { writeFileAtomic } from '../../src/core/atomic-files.js';

const roots: string[] = [];

async function world(): Promise<{ root: string; managed: string; victim: string }> {
  const root = await mkdtemp(join(tmpdir(), 'ak-nofollow-'));
  roots.push(root);
  const managed = join(root, 'managed');
  const victim = join(root, 'victim');
  await mkdir(managed);
  await mkdir(victim);
  await writeFile(join(victim, 'f'), 'precious\n');
  await writeFile(join(victim, '.appimage-keeper~a~1.00000000.abcdef.part'), 'precious temp\n');
  return { root, managed, victim };
}

async function victimUnchanged(victim: string): Promise<void> {
  assert.deepEqual((await readdir(victim)).sort(), ['.appimage-keeper~a~1.00000000.abcdef.part', 'f']);
  assert.equal(await readFile(join(victim, 'f'), 'utf8'), 'precious\n');
}

void describe('no writing through planted symlinks', () => {
  after(async () => {
    for (const r of roots) await rm(r, { recursive: true, force: true });
  });

  void test('writeFileAtomic refuses a linked folder below its root and replaces a linked file instead of following it', async () => {
    const { managed, victim } = await world();
    await symlink(victim, join(managed, 'sub'));
    await assert.rejects(writeFileAtomic(join(managed, 'sub', 'f'), 'evil', { root: managed }), {
      code: 'SYMLINK_REFUSED',
      message: new RegExp(`^${join(managed, 'sub')} is a symbolic link`),
    });
    await symlink(join(victim, 'f'), join(managed, 'f'));
    await writeFileAtomic(join(managed, 'f'), 'ours', { root: managed, mode: 0o600 });
    await victimUnchanged(victim);
    const st = await lstat(join(managed, 'f'));
    assert.ok(st.isFile() && (st.mode & 0o777) === 0o600);
  });

  void test('the managed folder itself may be a link', async () => {
    const { root, managed } = await world();
    const linked = join(root, 'linked-managed');
    await symlink(managed, linked);
    await writeFileAtomic(join(linked, 'new', 'f'), 'ok', { root: linked });
    assert.equal(await readFile(join(managed, 'new', 'f'), 'utf8'), 'ok');
  });

  void test('deleteManagedFile and cleanStaleTemps refuse a linked folder', async () => {
    const { managed, victim } = await world();
    const sub = join(managed, '.appimage-keeper-previous');
    await symlink(victim, sub);
    await assert.rejects(deleteManagedFile(join(sub, 'f'), [managed]), { code: 'SYMLINK_REFUSED' });
    await assert.rejects(cleanStaleTemps(sub, '.appimage-keeper~a~', undefined, managed), {
      code: 'SYMLINK_REFUSED',
    });
    await victimUnchanged(victim);
  });

  void test('openNewFile never opens an existing entry or a link', async () => {
    const { managed, victim } = await world();
    await symlink(join(victim, 'f'), join(managed, 'l'));
    await symlink(join(victim, 'absent'), join(managed, 'dangling'));
    await assert.rejects(openNewFile(join(managed, 'l'), 0o644), { code: 'EEXIST' });
    await assert.rejects(openNewFile(join(managed, 'dangling'), 0o644), { code: 'EEXIST' });
    await victimUnchanged(victim);
  });
});
