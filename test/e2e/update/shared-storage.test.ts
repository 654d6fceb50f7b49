// Two profiles (config dirs with their own state) sharing a storage_dir and an app name: each used
// to keep the other's file aside as `<file>.foreign-<time>` on every round, two 30 MB copies per
// round, never removed. Another profile's current install is now refused once per run
// (STORAGE_CLAIMED, naming that profile), nothing is downloaded for it, no copy is kept; a file
// kept aside is kept once, and `doctor` lists it with the command that removes it.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { appOf } from '../../helpers/json-output.js';
import { execInstalled } from '../../helpers/run-program.js';
import { sha256 } from '../../helpers/sha256.js';
import { publish, type World, useUpdateSuite } from './harness.js';

/** A recipe for app `twin` that follows the sim's repository `e2e/<repo>`. */
function twinRecipe(w: World, simUrl: string, repo: string, storageDir: string): Promise<void> {
  return w.recipe(
    'twin',
    [
      'name: twin',
      'strategy:',
      '  strategy: forge',
      `  repository: ${simUrl}/e2e/${repo}`,
      `  asset_match: "${repo}-*"`,
      `storage_dir: ${storageDir}`,
      '',
    ].join('\n'),
  );
}

async function foreignCopies(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((n) => n.includes('.foreign-')).sort();
}

interface Failed {
  status: string;
  error?: { code: string; message: string; hint?: string };
  warnings?: string[];
  bytes_downloaded?: number;
}

void describe('profiles sharing a storage_dir and an app name', { concurrency: true }, () => {
  const suite = useUpdateSuite();

  async function twins(tag: string): Promise<{ a: World; b: World; target: string }> {
    const a = await suite.world('manage_desktop_files: false\ncreate_symlinks: false');
    const b = await suite.world('manage_desktop_files: false\ncreate_symlinks: false');
    await twinRecipe(a, suite.sim.url, `${tag}-a`, a.storageDir);
    await twinRecipe(b, suite.sim.url, `${tag}-b`, a.storageDir);
    return { a, b, target: join(a.storageDir, 'twin.AppImage') };
  }

  void test("another profile's current install is refused once per run, never copied, never downloaded", async () => {
    const { a, b, target } = await twins('own');
    for (const [round, version] of ['1.0.0', '2.0.0', '3.0.0'].entries()) {
      await publish(suite.sim, 'own-a', version);
      await publish(suite.sim, 'own-b', version);
      const ra = await a.update();
      assert.equal(ra.code, 0, ra.stdout + ra.stderr);
      assert.equal(appOf(ra, 'twin').status, 'updated', `round ${round}`);
      const rb = await b.update();
      assert.equal(rb.code, 1, rb.stdout + rb.stderr);
      const o = appOf(rb, 'twin') as Failed;
      assert.equal(o.status, 'failed', `round ${round}: ${rb.stdout}`);
      assert.equal(o.error?.code, 'STORAGE_CLAIMED');
      assert.ok(o.error?.message.includes(a.home.configDir), o.error?.message);
      assert.ok(o.error?.message.includes(target), o.error?.message);
      assert.equal(o.bytes_downloaded ?? 0, 0, 'nothing downloaded for a file it may not replace');
      // Said once: one error, no warning repeating it.
      assert.equal(rb.stdout.split('STORAGE_CLAIMED').length - 1, 1, rb.stdout);
      assert.equal(await execInstalled(target), `own-a ${version}`);
      assert.deepEqual(await foreignCopies(a.storageDir), [], `round ${round}`);
    }
    // b's state never recorded a's file as its own.
    assert.equal((await b.state()).apps.twin?.installed, undefined);
  });

  void test('a file installed before owner records existed is kept aside once, then the profiles stop trading it', async () => {
    const { a, b, target } = await twins('old');
    await publish(suite.sim, 'old-a', '1.0.0');
    await publish(suite.sim, 'old-b', '1.0.0');
    assert.equal((await a.update()).code, 0);
    // As an earlier version left it: no owner record.
    await rm(join(a.storageDir, '.appimage-keeper-owners'), { recursive: true, force: true });
    const aFile = sha256(await readFile(target));
    const rb = await b.update();
    assert.equal(rb.code, 0, rb.stdout + rb.stderr);
    assert.equal((appOf(rb, 'twin') as Failed).status, 'updated');
    const kept = await foreignCopies(a.storageDir);
    assert.equal(kept.length, 1);
    assert.equal(sha256(await readFile(join(a.storageDir, kept[0] ?? ''))), aFile);
    for (const version of ['2.0.0', '3.0.0']) {
      await publish(suite.sim, 'old-a', version);
      await publish(suite.sim, 'old-b', version);
      const ra = await a.update();
      assert.equal(ra.code, 1, ra.stdout + ra.stderr);
      const o = appOf(ra, 'twin') as Failed;
      assert.equal(o.error?.code, 'STORAGE_CLAIMED');
      assert.ok(o.error?.message.includes(b.home.configDir), o.error?.message);
      const rb2 = await b.update();
      assert.equal(rb2.code, 0, rb2.stdout + rb2.stderr);
      assert.equal(await execInstalled(target), `old-b ${version}`);
      assert.deepEqual(await foreignCopies(a.storageDir), kept, 'still the one copy');
    }

    // doctor lists the copy with the command that removes it; after that command, nothing.
    const doc = await a.cli(['--json', 'doctor']);
    const checks = (doc.json as { checks: { id: string; status: string; message: string; hint: string }[] })
      .checks;
    const foreign = checks.find((c) => c.id === 'foreign-files');
    assert.equal(foreign?.status, 'warn');
    const path = join(a.storageDir, kept[0] ?? '');
    assert.ok(foreign.message.includes(path), foreign.message);
    assert.ok(foreign.hint.includes(`rm -- ${path}`), foreign.hint);
    await rm(path);
    const again = await a.cli(['--json', 'doctor']);
    const after = (again.json as { checks: { id: string; status: string }[] }).checks;
    assert.equal(after.find((c) => c.id === 'foreign-files')?.status, 'ok');
  });

  void test('a claim whose profile no longer records the file is stale: the file is kept aside once and replaced', async () => {
    const { a, b, target } = await twins('gone');
    await publish(suite.sim, 'gone-a', '1.0.0');
    await publish(suite.sim, 'gone-b', '1.0.0');
    assert.equal((await a.update()).code, 0);
    // Profile a is deleted without `remove`: its state is gone, its record stays.
    await rm(join(a.home.stateDir, 'state.json'));
    const rb = await b.update();
    assert.equal(rb.code, 0, rb.stdout + rb.stderr);
    const o = appOf(rb, 'twin') as Failed;
    assert.equal(o.status, 'updated');
    assert.ok(o.warnings?.some((m) => /not installed by appimage-keeper; kept it as/.test(m)));
    assert.equal((await foreignCopies(a.storageDir)).length, 1);
    assert.equal(await execInstalled(target), 'gone-b 1.0.0');
  });

  void test('the same foreign file put back at the target is not kept a second time', async () => {
    const w = await suite.world('manage_desktop_files: false\ncreate_symlinks: false');
    await w.forgeRecipe('same');
    const target = join(w.storageDir, 'same.AppImage');
    const theirs = Buffer.from('#!/bin/sh\necho patched by hand\n');
    for (const version of ['1.0.0', '2.0.0', '3.0.0']) {
      await writeFile(target, theirs);
      await publish(suite.sim, 'same', version);
      const r = await w.update();
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(await execInstalled(target), `same ${version}`);
    }
    const kept = await foreignCopies(w.storageDir);
    assert.equal(kept.length, 1, kept.join(', '));
    assert.equal(sha256(await readFile(join(w.storageDir, kept[0] ?? ''))), sha256(theirs));
  });

  void test('hostile owner records: a symlinked folder is never written through, a garbage record claims nothing', async () => {
    const w = await suite.world('manage_desktop_files: false\ncreate_symlinks: false');
    await w.forgeRecipe('odd');
    const outside = join(w.home.root, 'outside');
    await mkdir(outside);
    const owners = join(w.storageDir, '.appimage-keeper-owners');
    await symlink(outside, owners);
    await writeFile(join(outside, 'odd.AppImage.owner'), 'planted');
    await publish(suite.sim, 'odd', '1.0.0');
    const r1 = await w.update();
    assert.equal(r1.code, 0, r1.stdout + r1.stderr);
    assert.deepEqual(await readdir(outside), ['odd.AppImage.owner']);
    assert.equal(await readFile(join(outside, 'odd.AppImage.owner'), 'utf8'), 'planted');
    // remove deletes the AppImage, never the planted file behind the symlink.
    assert.equal((await w.cli(['--json', 'remove', 'odd'])).code, 0);
    assert.equal(await readFile(join(outside, 'odd.AppImage.owner'), 'utf8'), 'planted');

    // A real folder holding a 1 MiB record of `[` and a foreign file at the target: the record is
    // ignored (too large), the file is kept aside once as usual.
    await rm(owners);
    await mkdir(owners);
    await writeFile(join(owners, 'odd.AppImage.owner'), '['.repeat(1024 * 1024));
    await writeFile(join(w.storageDir, 'odd.AppImage'), '#!/bin/sh\necho theirs\n');
    await publish(suite.sim, 'odd', '2.0.0');
    const r2 = await w.update(['odd']);
    assert.equal(r2.code, 0, r2.stdout + r2.stderr);
    assert.equal(await execInstalled(join(w.storageDir, 'odd.AppImage')), 'odd 2.0.0');
    assert.equal((await foreignCopies(w.storageDir)).length, 1);
    const record = JSON.parse(await readFile(join(owners, 'odd.AppImage.owner'), 'utf8')) as { app: string };
    assert.equal(record.app, 'odd', 'the install wrote its own record over the garbage');
  });
});
