/**
 * Which program the timer's service runs, for PATH layouts of Node version managers, laid out for
 * real in a temp dir (launchers are small shell scripts that print a version).
 */
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { VERSION } from '../../src/core/version.js';
import { chooseServiceProgram } from '../../src/system/schedule/service-program.js';
import { stablePathDirs, versionManagerOf } from '../../src/system/schedule/version-manager-dir.js';

let root = '';
let home = '';
let nvmBin = '';
let localBin = '';
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'ak-program-'));
  home = join(root, 'home');
  nvmBin = join(home, '.nvm', 'versions', 'node', 'v20.19.0', 'bin');
  localBin = join(home, '.local', 'bin');
});
after(() => rm(root, { recursive: true, force: true }));

let n = 0;
/** A fresh pair of bin dirs for one case (nvm's and ~/.local/bin), with PATH in that order. */
async function layout(): Promise<{ nvm: string; local: string; env: NodeJS.ProcessEnv }> {
  n++;
  const nvm = nvmBin.replace(root, join(root, `case${n}`));
  const local = localBin.replace(root, join(root, `case${n}`));
  await mkdir(nvm, { recursive: true });
  await mkdir(local, { recursive: true });
  return { nvm, local, env: { PATH: `${nvm}:${local}:/usr/bin:/bin`, HOME: dirname(dirname(local)) } };
}

async function script(path: string, text: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  await chmod(path, 0o755);
  return path;
}

/** A launcher that prints `version` the way `appimage-keeper --version` does. */
const launcher = (path: string, version = VERSION) => script(path, `#!/bin/sh\necho ${version}\n`);

/** Facts of a process run by a versioned node from a clone. */
function cloneFacts(nvm: string) {
  return {
    sea: false,
    execPath: join(nvm, 'node'),
    script: join(root, 'clone', 'dist', 'appimage-keeper.cjs'),
  };
}

void describe('where a path belongs to one Node version', () => {
  void test('per-version directories of the common managers, not their shims', () => {
    const h = '/home/u';
    const versioned: [string, string][] = [
      [`${h}/.nvm/versions/node/v20.19.0/bin/node`, 'nvm'],
      [`${h}/.config/nvm/versions/node/v22.1.0/bin`, 'nvm'],
      [`${h}/.local/share/fnm/node-versions/v20.19.0/installation/bin/node`, 'fnm'],
      [`${h}/.fnm/node-versions/v20.19.0/installation/bin`, 'fnm'],
      ['/run/user/1000/fnm_multishells/1234_1700000000000/bin', 'fnm'],
      [`${h}/.volta/tools/image/node/20.19.0/bin/node`, 'volta'],
      [`${h}/.asdf/installs/nodejs/20.19.0/bin/node`, 'asdf'],
      ['/usr/local/n/versions/node/20.19.0/bin/node', 'n'],
      [`${h}/.local/share/mise/installs/node/20.19.0/bin/node`, 'mise'],
      [`${h}/.nodenv/versions/20.19.0/bin/node`, 'nodenv'],
      [`${h}/.nvs/node/20.19.0/x64/bin/node`, 'nvs'],
      [`${h}/.local/share/pnpm/nodejs/20.19.0/bin/node`, 'pnpm'],
      ['/home/linuxbrew/.linuxbrew/Cellar/node@20/20.19.0/bin/node', 'Homebrew'],
    ];
    for (const [path, manager] of versioned) assert.equal(versionManagerOf(path, {}), manager, path);
    const stable = [
      '/usr/bin/node',
      '/usr/local/bin/appimage-keeper',
      `${h}/.local/bin/appimage-keeper`,
      `${h}/.volta/bin/node`,
      `${h}/.asdf/shims/node`,
      `${h}/.local/share/mise/shims/node`,
      `${h}/.nodenv/shims/node`,
      `${h}/.nvm/nvm.sh`,
      '/home/linuxbrew/.linuxbrew/bin/node',
    ];
    for (const path of stable) assert.equal(versionManagerOf(path, {}), undefined, path);
    // A manager installed somewhere custom is found through its variable.
    assert.equal(versionManagerOf('/opt/nvm-here/versions/node/x/bin/node', {}), undefined);
    assert.equal(
      versionManagerOf('/opt/nvm-here/versions/node/x/bin/node', { NVM_DIR: '/opt/nvm-here' }),
      'nvm',
    );
    assert.equal(versionManagerOf('/opt/v/tools/image/node/1/bin/node', { VOLTA_HOME: '/opt/v' }), 'volta');
  });

  void test("the unit's PATH: this shell's absolute, stable directories, each once", () => {
    assert.deepEqual(
      stablePathDirs(
        '/home/u/.nvm/versions/node/v20.19.0/bin:relative:/home/u/.local/bin/:/usr/bin::/usr/bin',
        {},
      ),
      ['/home/u/.local/bin', '/usr/bin'],
    );
  });
});

void describe('the program a timer runs', () => {
  void test('the standalone executable runs itself, alone', async () => {
    const { env } = await layout();
    const p = await chooseServiceProgram(
      { sea: true, execPath: '/opt/ak/appimage-keeper', script: '/opt/ak/appimage-keeper' },
      env,
    );
    assert.deepEqual(p, {
      kind: 'standalone',
      argv: ['/opt/ak/appimage-keeper'],
      unitPath: undefined,
      warnings: [],
      hint: undefined,
    });
  });

  void test("nvm's bin comes first on PATH, ~/.local/bin's launcher is chosen", async () => {
    const { nvm, local, env } = await layout();
    await launcher(join(nvm, 'appimage-keeper'));
    await launcher(join(local, 'appimage-keeper'));
    const p = await chooseServiceProgram(cloneFacts(nvm), env);
    assert.equal(p.kind, 'path');
    assert.deepEqual(p.argv, [join(local, 'appimage-keeper')]);
    assert.equal(p.unitPath, `${local}:/usr/bin:/bin`);
    assert.deepEqual(p.warnings, []);
  });

  void test('a stable launcher that links into a version directory is used, with a warning', async () => {
    const { nvm, local, env } = await layout();
    const target = await launcher(join(dirname(nvm), 'lib', 'node_modules', 'appimage-keeper', 'cli.mjs'));
    await symlink(target, join(local, 'appimage-keeper'));
    const p = await chooseServiceProgram(cloneFacts(nvm), env);
    assert.deepEqual(p.argv, [join(local, 'appimage-keeper')], 'the PATH entry, not its real path');
    assert.match(
      p.warnings[0] ?? '',
      /links to .*\.nvm\/versions\/node\/v20\.19\.0\/lib\/.* inside nvm's directory/,
    );
    assert.match(p.hint ?? '', /standalone executable/);
  });

  void test('a launcher that links into a clone (`npm install -g .`) is used, with a warning', async () => {
    const { nvm, local, env } = await layout();
    const clone = join(root, `clone${n}`);
    const target = await launcher(join(clone, 'dist', 'appimage-keeper.cjs'));
    await symlink(target, join(local, 'appimage-keeper'));
    const p = await chooseServiceProgram(cloneFacts(nvm), env);
    assert.deepEqual(p.argv, [join(local, 'appimage-keeper')]);
    assert.deepEqual(p.warnings, [
      `${join(local, 'appimage-keeper')} links to the clone in ${clone}: moving or deleting it breaks the timer`,
    ]);
    assert.match(p.hint ?? '', /standalone executable/);
  });

  void test('launchers that are another version, run a versioned node, or flood their output are skipped', async () => {
    const { nvm, local, env } = await layout();
    await launcher(join(local, 'appimage-keeper'), '9.9.9');
    const other = await chooseServiceProgram(cloneFacts(nvm), env);
    assert.equal(other.kind, 'node');
    assert.deepEqual(other.argv, [join(nvm, 'node'), join(root, 'clone', 'dist', 'appimage-keeper.cjs')]);
    assert.match(other.warnings.join('\n'), /runs .*\.nvm.* inside nvm's directory for one Node version/);
    assert.match(
      other.warnings.join('\n'),
      /the timer runs the clone in .*clone: moving or deleting it breaks the timer/,
    );
    assert.match(other.warnings.join('\n'), /appimage-keeper is version 9\.9\.9, this is /);

    await script(join(local, 'appimage-keeper'), `#!${join(nvm, 'node')}\n`);
    const pinned = await chooseServiceProgram(cloneFacts(nvm), env);
    assert.match(
      pinned.warnings.join('\n'),
      /appimage-keeper runs .*v20\.19\.0\/bin\/node, inside nvm's directory/,
    );

    await script(join(local, 'appimage-keeper'), '#!/bin/sh\nexec yes\n');
    const flood = await chooseServiceProgram(cloneFacts(nvm), env);
    assert.equal(flood.kind, 'node');
    assert.match(flood.warnings.join('\n'), /appimage-keeper --version failed/);
  });

  void test('node and script outside any version manager need no warning', async () => {
    const { env } = await layout();
    const facts = {
      sea: false,
      execPath: '/usr/bin/node',
      script: '/usr/lib/node_modules/appimage-keeper/dist/appimage-keeper.cjs',
    };
    assert.deepEqual(await chooseServiceProgram(facts, { ...env, PATH: '/nonexistent' }), {
      kind: 'node',
      argv: [facts.execPath, facts.script],
      unitPath: undefined,
      warnings: [],
      hint: undefined,
    });
  });
});
