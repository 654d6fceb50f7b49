// A symlink planted inside a folder we manage is never written or deleted through. The audit's
// case: `<storage_dir>/.appimage-keeper-previous -> /elsewhere` made update keep the replaced
// version (and clean temp files) in /elsewhere. Each case plants a link at a name we write below
// storage_dir, the state folder or the icon folder, points it at a victim folder, runs the real CLI
// and checks the victim is exactly as it was and the refusal names the link.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { snapshotTree } from '../../helpers/snapshot-tree.js';
import { tempFiles } from '../../helpers/temp-files.js';
import { publish, useUpdateSuite, type World } from './harness.js';

// A victim folder beside the tool's folders, with a file named as ours would be and a stale-looking temp.
async function makeVictim(
  w: World,
  app: string,
): Promise<{ dir: string; snapshot: () => Promise<string[]> }> {
  const dir = join(w.home.root, 'victim');
  await mkdir(dir);
  await writeFile(join(dir, `${app}.AppImage`), 'precious AppImage\n');
  await writeFile(join(dir, `${app}.json`), 'precious intent\n');
  await writeFile(join(dir, `.appimage-keeper~${app}~1.00000000.abcdef.previous`), 'precious temp\n');
  return { dir, snapshot: () => snapshotTree(w.home.root, [dir], { metadata: true }) };
}

function appOf(run: Awaited<ReturnType<World['update']>>, app: string) {
  const a = run.json?.apps.find((x) => x.name === app);
  assert.ok(a, run.stdout + run.stderr);
  return a;
}

void describe('symlinks planted in managed folders', () => {
  const suite = useUpdateSuite();

  void test('a linked .appimage-keeper-previous: update refuses, keeps the installed version, writes nothing through it', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await publish(suite.sim, 'pv', '1.0');
    await w.forgeRecipe('pv');
    assert.equal(appOf(await w.update(), 'pv').status, 'updated');
    const installed = await readFile(join(w.storageDir, 'pv.AppImage'));
    const victim = await makeVictim(w, 'pv');
    const before = await victim.snapshot();
    const link = join(w.storageDir, '.appimage-keeper-previous');
    await symlink(victim.dir, link);

    await publish(suite.sim, 'pv', '2.0');
    const run = await w.update();
    assert.deepEqual(await victim.snapshot(), before, 'the victim folder is unchanged');
    const pv = appOf(run, 'pv');
    assert.equal(pv.status, 'failed', run.stdout);
    assert.equal(pv.error?.code, 'SYMLINK_REFUSED');
    assert.ok(pv.error?.message.includes(link), pv.error?.message);
    assert.deepEqual(await readFile(join(w.storageDir, 'pv.AppImage')), installed, '1.0 stays installed');
  });

  void test('a linked .appimage-keeper-previous holding the kept version: rollback and remove refuse', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await publish(suite.sim, 'rb', '1.0');
    await w.forgeRecipe('rb');
    await w.update();
    await publish(suite.sim, 'rb', '2.0');
    assert.equal(appOf(await w.update(), 'rb').status, 'updated');
    // The kept 1.0 is moved out and the folder replaced by a link to where it now lives.
    const victimDir = join(w.home.root, 'victim');
    const link = join(w.storageDir, '.appimage-keeper-previous');
    await rename(link, victimDir);
    await symlink(victimDir, link);
    assert.deepEqual(await readdir(victimDir), ['rb.AppImage']);
    const before = await snapshotTree(w.home.root, [victimDir], { metadata: true });

    const rollback = await w.cli(['--json', 'rollback', 'rb']);
    assert.deepEqual(await snapshotTree(w.home.root, [victimDir], { metadata: true }), before, 'rollback');
    assert.notEqual(rollback.code, 0, rollback.stdout);
    assert.match(rollback.stdout + rollback.stderr, /SYMLINK_REFUSED/);

    const remove = await w.cli(['--json', 'remove', 'rb']);
    assert.deepEqual(await snapshotTree(w.home.root, [victimDir], { metadata: true }), before, 'remove');
    assert.notEqual(remove.code, 0, remove.stdout);
    assert.ok(remove.stdout.includes(link), remove.stdout);
  });

  void test('a linked pending folder in the state folder: the install intent is not written through it', async () => {
    const w = await suite.world('manage_desktop_files: false');
    const victim = await makeVictim(w, 'ip');
    const before = await victim.snapshot();
    await mkdir(w.home.stateDir, { recursive: true });
    const link = join(w.home.stateDir, 'pending');
    await symlink(victim.dir, link);
    await publish(suite.sim, 'ip', '1.0');
    await w.forgeRecipe('ip');

    const run = await w.update();
    assert.deepEqual(await victim.snapshot(), before, 'the victim folder is unchanged');
    const ip = appOf(run, 'ip');
    assert.equal(ip.error?.code, 'SYMLINK_REFUSED', run.stdout);
    assert.ok(ip.error?.message.includes(link), ip.error?.message);
    assert.deepEqual(await tempFiles(w.storageDir), [], 'the download is not left behind');
    assert.deepEqual(await readdir(w.storageDir), [], 'nothing was installed without its intent');
  });

  void test('a linked icon theme folder: the icon is not written through it', async () => {
    const w = await suite.world('manage_desktop_files: true');
    const victim = await makeVictim(w, 'ic');
    const before = await victim.snapshot();
    const link = join(w.home.dataHome, 'icons', 'hicolor');
    await mkdir(join(w.home.dataHome, 'icons'), { recursive: true });
    await symlink(victim.dir, link);
    await publish(suite.sim, 'ic', '1.0');
    await w.forgeRecipe('ic');

    const run = await w.update();
    assert.deepEqual(await victim.snapshot(), before, 'the victim folder is unchanged');
    const ic = appOf(run, 'ic');
    assert.equal(ic.status, 'updated', run.stdout);
    assert.ok(
      ic.warnings.some((m) => m.includes(link) && m.includes('symbolic link')),
      JSON.stringify(ic.warnings),
    );
  });
});
