/**
 * self-update against the loopback sim, in-process: a release of the tool's own repository whose
 * asset is a real small ELF (the fixture runtime), replacing a stand-in executable in a temp dir.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildRuntime } from '../../fixtures/runtime.js';
import { resolvePaths } from '../../src/config/paths.js';
import { loadWorkspace, type Workspace } from '../../src/config/workspace.js';
import type { Context } from '../../src/core/context.js';
import { KeeperError } from '../../src/core/errors.js';
import { hostArch } from '../../src/appimage/elf.js';
import { standaloneFileName } from '../../src/system/self-update/asset-name.js';
import { installKindOf, type InstallKind } from '../../src/system/self-update/install-kind.js';
import { selfUpdate, type SelfUpdateResult } from '../../src/system/self-update/self-update.js';
import { startSim, type Sim, type SimReleaseAsset } from '../../sim/index.js';
import { sha256 } from '../helpers/sha256.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { createHttpSettings } from '../../src/http/settings.js';

const run = promisify(execFile);
const OLD = Buffer.from('#!/bin/sh\necho old\n');

function newExecutable(version: string, arch: 'x86_64' | 'aarch64' = 'x86_64'): Buffer {
  return buildRuntime({ message: `appimage-keeper ${version}\n`, arch });
}

void describe('self-update', () => {
  let sim: Sim;
  let h: TmpHome;
  let ws: Workspace;
  let ctx: Context;
  let n = 0;
  const repo = () => `${sim.url}/ak/appimage-keeper`;

  before(async () => {
    sim = await startSim();
    h = await makeTmpHome();
    h.env.APPIMAGE_KEEPER_PROXY_BUILTINS = '';
    await h.writeConfig(
      [
        `hub_release_api_url: ${sim.hubApiUrl}`,
        `hub_release_web_url: ${sim.url}`,
        'hub_proxy: false',
        '',
      ].join('\n'),
    );
    ctx = {
      env: h.env,
      paths: resolvePaths(h.env),
      now: () => new Date(),
      arch: process.arch,
      emit: () => {},
      http: createHttpSettings(),
    };
    ws = await loadWorkspace(ctx.paths, ctx.env);
  });
  after(async () => {
    await sim.stop();
    await h.cleanup();
  });

  /** Publishes `body` as release v<version> with the standalone asset (and `extra` assets). */
  function publish(
    version: string,
    body: Buffer,
    opts: { digest?: string | false; extra?: SimReleaseAsset[]; size?: number } = {},
  ) {
    const name = standaloneFileName(version, process.arch);
    const url = sim.putAsset(`/self/${version}/${++n}/${name}`, body);
    const digest = opts.digest === undefined ? `sha256:${sha256(body)}` : opts.digest;
    sim.hub.setReleases('ak', 'appimage-keeper', [
      {
        tag: `v${version}`,
        assets: [
          { name, url, ...(digest ? { digest } : {}), ...(opts.size ? { size: opts.size } : {}) },
          ...(opts.extra ?? []),
        ],
      },
    ]);
    return url;
  }

  /** A stand-in for the installed executable in its own temp dir. */
  async function installed(mode = 0o750): Promise<{ dir: string; file: string }> {
    const dir = join(h.root, `exe-${++n}`);
    await mkdir(dir);
    const file = join(dir, 'appimage-keeper');
    await writeFile(file, OLD);
    await chmod(file, mode);
    return { dir, file };
  }

  const update = (install: InstallKind, force = false, currentVersion = '0.1.0'): Promise<SelfUpdateResult> =>
    selfUpdate(ctx, ws, {
      install,
      repository: repo(),
      force,
      currentVersion,
      signal: new AbortController().signal,
    });

  void it('replaces the standalone executable atomically, keeping its mode, and the new one runs', async () => {
    const body = newExecutable('9.1.0');
    publish('9.1.0', body);
    const { dir, file } = await installed(0o750);
    const r = await update({ kind: 'standalone', executable: file });
    assert.equal(r.status, 'updated');
    assert.equal(r.status === 'updated' && r.latest, '9.1.0');
    assert.deepEqual(await readFile(file), body);
    assert.equal((await stat(file)).mode & 0o777, 0o750);
    assert.deepEqual(await readdir(dir), ['appimage-keeper'], 'no temp file left');
    const { stdout } = await run(file, []);
    assert.equal(stdout, 'appimage-keeper 9.1.0\n');
  });

  void it('does nothing when the latest release is not newer (and --force reinstalls it)', async () => {
    publish('0.1.0', newExecutable('0.1.0'));
    const { file } = await installed();
    sim.clearRequests();
    const r = await update({ kind: 'standalone', executable: file });
    assert.deepEqual(r, { status: 'up_to_date', install: 'standalone', current: '0.1.0', latest: '0.1.0' });
    assert.ok(!sim.requests.some((q) => q.path.startsWith('/self/')), 'no download');
    assert.deepEqual(await readFile(file), OLD);
    const forced = await update({ kind: 'standalone', executable: file }, true);
    assert.equal(forced.status, 'updated');
  });

  const rejects: [string, () => void, string][] = [
    [
      'a wrong digest',
      () => publish('9.2.0', newExecutable('9.2.0'), { digest: `sha256:${'0'.repeat(64)}` }),
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
    const sumUrl = sim.putAsset(`/self/sums/${name}.sha256`, Buffer.from(`${sha256(body)}  ${name}\n`));
    publish('9.6.0', body, { digest: false, extra: [{ name: `${name}.sha256`, url: sumUrl }] });
    const { file } = await installed();
    const r = await update({ kind: 'standalone', executable: file });
    assert.equal(r.status, 'updated');
    assert.deepEqual(await readFile(file), body);
  });

  void it('for an npm install, gives the npm command for the release tarball and touches nothing', async () => {
    const tgzUrl = sim.putAsset('/self/tgz/appimage-keeper-9.7.0.tgz', Buffer.from('tarball'));
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
