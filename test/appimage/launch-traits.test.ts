import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeAppImage } from '../../fixtures/make-appimage.js';
import { readLaunchTraits } from '../../src/appimage/launch-traits.js';
import { apparmorProfile, planLaunchFixes } from '../../src/install/launch-fixes.js';
import { probeHost } from '../../src/install/launch-host.js';
import { corpusFile, skipWithoutCorpus } from '../helpers/corpus.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ak-launch-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

void describe('launch traits of real AppImages', { skip: skipWithoutCorpus() }, () => {
  void test('the gzip and xz Hello_World runtimes load libfuse.so.2; the zstd one is the static runtime', async () => {
    for (const [file, fuse2] of [
      ['Hello_World-x86_64.gzip.AppImage', true],
      ['Hello_World-x86_64.xz.AppImage', true],
      ['Hello_World-x86_64.zstd.AppImage', false],
      ['appimagetool-x86_64.AppImage', true],
    ] as const) {
      const traits = await readLaunchTraits(corpusFile('appimages', file) ?? '');
      assert.deepEqual(traits, { electronMarker: undefined, needsLibfuse2: fuse2 }, file);
    }
  });
});

void describe('launch traits of fixtures', () => {
  void test('chrome-sandbox at the root, app.asar below, too deep, a resources folder without app.asar', async () => {
    const cases: [string, Record<string, string>, string | undefined][] = [
      ['root', { 'chrome-sandbox': 'x' }, 'chrome-sandbox'],
      ['nested', { 'opt/App/resources/app.asar': 'x' }, 'opt/App/resources/app.asar'],
      ['too-deep', { 'a/b/c/d/chrome-sandbox': 'x' }, undefined],
      ['one-down', { 'app/resources/app.asar': 'x' }, 'app/resources/app.asar'],
      ['plain-resources', { 'resources/data.txt': 'x' }, undefined],
    ];
    for (const [name, extraFiles, marker] of cases) {
      const outFile = join(dir, `${name}.AppImage`);
      await makeAppImage({ outFile, name, version: '1', extraFiles });
      const traits = await readLaunchTraits(outFile);
      assert.equal(traits.electronMarker, marker, name);
      assert.equal(traits.needsLibfuse2, false, name);
    }
  });

  void test('libfuse.so.2 named in the payload is not the runtime asking for it', async () => {
    const outFile = join(dir, 'payload.AppImage');
    await makeAppImage({
      outFile,
      name: 'payload',
      version: '1',
      extraFiles: { 'usr/lib/libfuse.so.2': 'lib' },
    });
    assert.equal((await readLaunchTraits(outFile)).needsLibfuse2, false);
    const old = join(dir, 'old.AppImage');
    await makeAppImage({ outFile: old, name: 'old', version: '1', runtimeDlopen: 'libfuse.so.2' });
    assert.equal((await readLaunchTraits(old)).needsLibfuse2, true);
  });
});

void describe('host probe and plan', () => {
  void test('the switch and libfuse.so.2 in a library folder or only in ld.so.cache', async () => {
    const root = join(dir, 'host');
    assert.deepEqual(await probeHost(root), { usernsRestricted: false, libfuse2: undefined });
    await mkdir(join(root, 'proc/sys/kernel'), { recursive: true });
    await writeFile(join(root, 'proc/sys/kernel/apparmor_restrict_unprivileged_userns'), '1\n');
    await mkdir(join(root, 'etc'), { recursive: true });
    await writeFile(join(root, 'etc/ld.so.cache'), Buffer.from('glibc-ld.so.cache1.1\0libfuse.so.3\0'));
    assert.deepEqual(await probeHost(root), { usernsRestricted: true, libfuse2: undefined });
    await writeFile(join(root, 'etc/ld.so.cache'), Buffer.from('glibc-ld.so.cache1.1\0libfuse.so.2\0/x\0'));
    assert.deepEqual(await probeHost(root), { usernsRestricted: true, libfuse2: '/etc/ld.so.cache' });
    await mkdir(join(root, 'lib64'), { recursive: true });
    await writeFile(join(root, 'lib64/libfuse.so.2'), 'so');
    assert.equal((await probeHost(root)).libfuse2, '/lib64/libfuse.so.2');
  });

  void test('plan: each fix only when both the app and the host call for it', () => {
    const electron = { electronMarker: 'chrome-sandbox', needsLibfuse2: false };
    const user = { enabled: true, execArgs: ['--x'], env: { A: '1' }, apparmorProfile: false };
    const restricted = { usernsRestricted: true, libfuse2: undefined };
    const plan = planLaunchFixes(electron, restricted, user);
    assert.deepEqual(plan.execArgs, ['--no-sandbox', '--x']);
    assert.deepEqual(plan.env, { A: '1' });
    assert.deepEqual(
      plan.fixes.map((f) => [f.id, f.state]),
      [['no-sandbox', 'applied']],
    );
    const open = planLaunchFixes(electron, { usernsRestricted: false, libfuse2: undefined }, user);
    assert.deepEqual(open.fixes, []);
    const fuse = planLaunchFixes({ electronMarker: undefined, needsLibfuse2: true }, restricted, user);
    assert.deepEqual(fuse.env, { APPIMAGE_EXTRACT_AND_RUN: '1', A: '1' });
    const hasLib = planLaunchFixes(
      { electronMarker: undefined, needsLibfuse2: true },
      { usernsRestricted: true, libfuse2: '/lib/libfuse.so.2' },
      user,
    );
    assert.deepEqual(hasLib.fixes, []);
  });

  void test('the AppArmor profile names the app and quotes the path', () => {
    const p = apparmorProfile('my app', '/home/u/Apps/my app*.AppImage');
    assert.equal(p.name, 'appimage-keeper-my_app');
    assert.match(
      p.text,
      /^profile appimage-keeper-my_app "\/home\/u\/Apps\/my app\*\.AppImage" flags=\(unconfined\) \{$/m,
    );
    assert.match(p.text, /^ {2}userns,$/m);
    assert.deepEqual(p.commands, [
      'sudo tee /etc/apparmor.d/appimage-keeper-my_app < appimage-keeper-my_app.profile',
      'sudo apparmor_parser -r /etc/apparmor.d/appimage-keeper-my_app',
    ]);
  });
});
