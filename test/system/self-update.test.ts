/**
 * self-update against the loopback sim, in-process: a release of the tool's own repository whose
 * asset is a real small ELF (the fixture runtime) attested by our release workflow's identity
 * (test CA), replacing a stand-in executable in a temp dir. Hostile releases: self-update-trust.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, readdir, readFile, stat } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { KeeperError } from '../../src/core/errors.js';
import { hostArch } from '../../src/appimage/elf.js';
import { standaloneFileName } from '../../src/system/self-update/asset-name.js';
import { installKindOf, type InstallKind } from '../../src/system/self-update/install-kind.js';
import type { SelfUpdateResult } from '../../src/system/self-update/self-update.js';
import {
  OLD,
  ourWorkflow,
  printing,
  useSelfUpdateWorld,
  type PublishOptions,
} from '../helpers/self-update-world.js';
import { sha256 } from '../helpers/sha256.js';

const run = promisify(execFile);

void describe('self-update', () => {
  const w = useSelfUpdateWorld();
  const sim = () => w.sim;

  /** Publishes `body` as release v<version>, attested by our release workflow. */
  const publish = (version: string, body: Buffer, opts: Omit<PublishOptions, 'attestedBy'> = {}) =>
    w.publish(version, body, { ...opts, attestedBy: ourWorkflow(`v${version}`) });
  const newExecutable = (version: string, arch: 'x86_64' | 'aarch64' = 'x86_64') =>
    printing(`${version}\n`, arch);
  const installed = (mode?: number) => w.installed(mode);
  const update = (install: InstallKind, force = false): Promise<SelfUpdateResult> =>
    w.update(install, { force });

  void it('replaces the standalone executable atomically, keeping its mode, and the new one runs', async () => {
    const body = newExecutable('9.1.0');
    publish('9.1.0', body);
    const { dir, file } = await installed(0o750);
    const r = await update({ kind: 'standalone', executable: file });
    assert.equal(r.status, 'updated');
    assert.equal(r.status === 'updated' && r.latest, '9.1.0');
    assert.deepEqual(await readFile(file), body);
    assert.equal((await stat(file)).mode & 0o777, 0o750);
    assert.deepEqual(
      await readdir(dir),
      ['appimage-keeper', 'appimage-keeper.previous'],
      'no temp file left',
    );
    assert.deepEqual(await readFile(`${file}.previous`), OLD, 'the replaced executable is kept');
    const { stdout } = await run(file, ['--version']);
    assert.equal(stdout, '9.1.0\n');
  });

  void it('does nothing when the latest release is not newer (and --force reinstalls it)', async () => {
    publish('0.1.0', newExecutable('0.1.0'));
    const { file } = await installed();
    sim().clearRequests();
    const r = await update({ kind: 'standalone', executable: file });
    assert.deepEqual(r, { status: 'up_to_date', install: 'standalone', current: '0.1.0', latest: '0.1.0' });
    assert.ok(!sim().requests.some((q) => q.path.startsWith('/self/')), 'no download');
    assert.deepEqual(await readFile(file), OLD);
    const forced = await update({ kind: 'standalone', executable: file }, true);
    assert.equal(forced.status, 'updated');
  });

  const rejects: [string, () => void, string][] = [
    [
      'a wrong digest',
      () => publish('9.2.0', newExecutable('9.2.0'), { digest: '0'.repeat(64) }),
      'VERIFY_DIGEST',
    ],
    [
      'an executable for another machine',
      () => publish('9.3.0', newExecutable('9.3.0', 'aarch64')),
      'VERIFY_ARCH',
    ],
    [
      'a file that is not an executable',
      () => publish('9.4.0', Buffer.from('<html>not found</html>')),
      'VERIFY_NOT_ELF',
    ],
    [
      'a release without a digest',
      () => publish('9.5.0', newExecutable('9.5.0'), { digest: false }),
      'SELF_UPDATE_NO_DIGEST',
    ],
    [
      'a release whose asset is far larger than any build of the tool',
      () => publish('9.5.1', newExecutable('9.5.1'), { size: 600 * 1024 * 1024 }),
      'SELF_UPDATE_SIZE',
    ],
  ];
  for (const [what, setup, code] of rejects) {
    void it(`refuses ${what} (${code}) and leaves the executable as it was`, async () => {
      if (hostArch(process.arch) !== 'x86_64' && code === 'VERIFY_ARCH') return;
      setup();
      const { dir, file } = await installed();
      await assert.rejects(update({ kind: 'standalone', executable: file }), (e: unknown) => {
        assert.ok(e instanceof KeeperError);
        assert.equal(e.code, code);
        return true;
      });
      assert.deepEqual(await readFile(file), OLD);
      assert.deepEqual(await readdir(dir), ['appimage-keeper'], 'no temp file left');
    });
  }

  void it('takes the digest from a .sha256 asset of the release', async () => {
    const body = newExecutable('9.6.0');
    const name = standaloneFileName('9.6.0', process.arch);
    const sumUrl = sim().putAsset(`/self/sums/${name}.sha256`, Buffer.from(`${sha256(body)}  ${name}\n`));
    publish('9.6.0', body, { digest: false, extra: [{ name: `${name}.sha256`, url: sumUrl }] });
    const { file } = await installed();
    const r = await update({ kind: 'standalone', executable: file });
    assert.equal(r.status, 'updated');
    assert.deepEqual(await readFile(file), body);
  });

  void it('for an npm install, gives the npm command for the release tarball and touches nothing', async () => {
    const tgzUrl = sim().putAsset('/self/tgz/appimage-keeper-9.7.0.tgz', Buffer.from('tarball'));
    publish('9.7.0', newExecutable('9.7.0'), { extra: [{ name: 'appimage-keeper-9.7.0.tgz', url: tgzUrl }] });
    const { file } = await installed();
    const r = await update({ kind: 'npm', script: file });
    assert.deepEqual(r, {
      status: 'manual',
      install: 'npm',
      current: '0.1.0',
      latest: '9.7.0',
      command: `npm install -g ${tgzUrl}`,
    });
    assert.deepEqual(await readFile(file), OLD);
    publish('9.8.0', newExecutable('9.8.0'));
    const noTarball = await update({ kind: 'npm', script: file });
    assert.equal(noTarball.status === 'manual' && noTarball.command, 'npm install -g appimage-keeper@9.8.0');
  });

  void it('for a clone, gives the git and npm commands', async () => {
    publish('9.9.0', newExecutable('9.9.0'));
    const r = await update({ kind: 'source', dir: '/home/me/src/appimage keeper' });
    assert.equal(
      r.status === 'manual' && r.command,
      "cd '/home/me/src/appimage keeper' && git pull && npm ci && npm run build",
    );
  });

  void it('refuses a folder it cannot write to before downloading', async (t) => {
    if (process.getuid?.() === 0) {
      t.skip('running as root: every folder is writable');
      return;
    }
    publish('9.9.1', newExecutable('9.9.1'));
    const { dir, file } = await installed();
    await chmod(dir, 0o555);
    try {
      await assert.rejects(
        update({ kind: 'standalone', executable: file }),
        /SELF_UPDATE_NOT_WRITABLE|cannot write/,
      );
    } finally {
      await chmod(dir, 0o755);
    }
  });
});

void describe('installKindOf', () => {
  void it('tells the standalone executable, an npm install and a clone apart', () => {
    assert.deepEqual(
      installKindOf({ sea: true, execPath: '/opt/ak/appimage-keeper', script: '/opt/ak/appimage-keeper' }),
      {
        kind: 'standalone',
        executable: '/opt/ak/appimage-keeper',
      },
    );
    const npm = '/usr/lib/node_modules/appimage-keeper/dist/appimage-keeper.cjs';
    assert.deepEqual(installKindOf({ sea: false, execPath: '/usr/bin/node', script: npm }), {
      kind: 'npm',
      script: npm,
    });
    assert.deepEqual(
      installKindOf({
        sea: false,
        execPath: '/usr/bin/node',
        script: '/home/me/ak/dist/appimage-keeper.cjs',
      }),
      { kind: 'source', dir: '/home/me/ak' },
    );
  });
});
