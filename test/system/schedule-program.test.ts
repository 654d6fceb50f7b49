/**
 * What the timer runs when Node comes from a version manager: the unit must point at a path that
 * survives switching or removing that Node version, and `doctor` must notice when it no longer runs.
 */
import assert from 'node:assert/strict';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../helpers/run-cli.js';
import { fakeProgram } from './fake-program.js';
import { makeNvmHome, type NvmHome } from './nvm-home.js';

interface InstallJson {
  exec_start: string[];
  program_kind: string;
  environment_path: string | null;
  warnings: string[];
  hint: string | null;
}

interface DoctorJson {
  checks: { id: string; status: string; message: string; hint: string | null }[];
}

const homes: NvmHome[] = [];
after(() => Promise.all(homes.map((n) => n.h.cleanup())));

/** A laid-out home with a fake systemctl and a session bus, so install runs its systemctl steps. */
async function home(
  stableLauncher: boolean,
  pathTail?: string,
): Promise<{ n: NvmHome; env: NodeJS.ProcessEnv }> {
  const n = await makeNvmHome({ stableLauncher });
  homes.push(n);
  const fakeBin = join(n.h.root, 'fake-bin');
  await fakeProgram(fakeBin, 'systemctl');
  const env = {
    ...n.h.env,
    PATH: [n.nvmBin, n.localBin, fakeBin, pathTail ?? n.h.env.PATH ?? ''].join(':'),
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
  };
  return { n, env };
}

/** `schedule install` run the way nvm runs it: its node, its global copy of the CLI. */
function installWithNvmNode(
  n: NvmHome,
  env: NodeJS.ProcessEnv,
  args: string[] = ['--json'],
  installArgs: string[] = [],
) {
  return runCli<InstallJson>([n.nvmScript, ...args, 'schedule', 'install', ...installArgs], {
    program: n.nvmNode,
    env,
  });
}

async function doctor(env: NodeJS.ProcessEnv) {
  const r = await runCli<DoctorJson>(['--json', 'doctor'], { env });
  const schedule = r.json?.checks.find((c) => c.id === 'schedule');
  assert.ok(schedule, r.stdout + r.stderr);
  return { code: r.code, schedule };
}

/** Replaces `path` with a shell script (the program the unit points at, broken in some way). */
async function replaceWithScript(path: string, body: string): Promise<void> {
  await rm(path, { force: true });
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
}

void describe('schedule install under a Node version manager', () => {
  void test('the unit runs the stable launcher on PATH, not the versioned node, and doctor checks it', async () => {
    const { n, env } = await home(true);
    const r = await installWithNvmNode(n, env);
    assert.equal(r.code, 0, r.stderr);
    const launcher = join(n.localBin, 'appimage-keeper');
    assert.deepEqual(r.json?.exec_start, [launcher, '--quiet', 'update']);
    assert.equal(r.json?.program_kind, 'path');
    assert.deepEqual(r.json?.warnings, []);
    const service = await readFile(join(n.unitDir, 'appimage-keeper.service'), 'utf8');
    assert.ok(!service.includes('.nvm'), service);
    assert.match(service, new RegExp(`^ExecStart="${launcher}" "--quiet" "update"$`, 'm'));
    // The launcher is `#!/usr/bin/env node`: the unit carries this shell's PATH without nvm's bin.
    const unitPath = r.json?.environment_path ?? '';
    assert.match(service, /^Environment="PATH=.*"$/m);
    assert.ok(unitPath.split(':').includes(n.localBin), unitPath);
    assert.ok(!unitPath.split(':').includes(n.nvmBin), unitPath);

    const healthy = await doctor(env);
    assert.equal(healthy.code, 0);
    assert.equal(healthy.schedule.status, 'ok', healthy.schedule.message);
    assert.equal(healthy.schedule.message, `the timer runs ${launcher} (0.1.0)`);

    // nvm removes the version the shell used: the unit does not care.
    await rm(n.nvmBin, { recursive: true });
    const afterRemoval = await doctor({ ...env, PATH: [n.localBin, n.h.env.PATH ?? ''].join(':') });
    assert.equal(afterRemoval.schedule.status, 'ok', afterRemoval.schedule.message);
  });

  void test('doctor fails the check when the program exits 1 or is gone, and warns on another version', async () => {
    const { n, env } = await home(true);
    assert.equal(
      (await installWithNvmNode(n, env, ['--json', '--config-dir', join(n.h.root, 'cfg dir')])).code,
      0,
    );
    const launcher = join(n.localBin, 'appimage-keeper');
    const doctorEnv = { ...env };
    const withConfig = async () => {
      const r = await runCli<DoctorJson>(['--json', '--config-dir', join(n.h.root, 'cfg dir'), 'doctor'], {
        env: doctorEnv,
      });
      const schedule = r.json?.checks.find((c) => c.id === 'schedule');
      assert.ok(schedule, r.stdout + r.stderr);
      return { code: r.code, schedule };
    };
    assert.equal((await withConfig()).schedule.status, 'ok');

    await replaceWithScript(launcher, 'echo "boom" >&2; exit 1');
    const failing = await withConfig();
    assert.equal(failing.code, 1);
    assert.equal(failing.schedule.status, 'fail');
    assert.equal(
      failing.schedule.message,
      `the timer's command ${launcher} does not run: exit status 1: boom`,
    );
    assert.equal(
      failing.schedule.hint,
      `run \`appimage-keeper --config-dir '${join(n.h.root, 'cfg dir')}' schedule install\` to rewrite the unit`,
    );

    await replaceWithScript(launcher, 'echo 0.0.9');
    const other = await withConfig();
    assert.equal(other.code, 0, 'a version mismatch is a warning');
    assert.equal(other.schedule.status, 'warn');
    assert.match(other.schedule.message, /says it is version "0\.0\.9"; this is 0\.1\.0$/);

    await rm(launcher);
    const gone = await withConfig();
    assert.equal(gone.code, 1);
    assert.equal(gone.schedule.message, `the timer runs ${launcher}, which does not exist`);

    // The human report says the same with its fix line.
    const human = await runCli(['--config-dir', join(n.h.root, 'cfg dir'), 'doctor'], { env: doctorEnv });
    assert.equal(human.code, 1);
    assert.match(
      human.stdout,
      /^FAIL {2}schedule {9}the timer runs .*appimage-keeper, which does not exist$/m,
    );
    assert.match(
      human.stdout,
      /fix: run `appimage-keeper --config-dir .* schedule install` to rewrite the unit/,
    );
  });

  void test('with only a versioned node, the unit uses it but says so, and doctor warns', async () => {
    const { n, env } = await home(false);
    const r = await installWithNvmNode(n, env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json?.exec_start, [n.nvmNode, n.nvmScript, '--quiet', 'update']);
    assert.equal(r.json?.program_kind, 'node');
    const warnings = r.json?.warnings ?? [];
    assert.match(warnings[0] ?? '', /inside nvm's directory for one Node version: switching or removing/);
    assert.match(
      warnings[1] ?? '',
      /no stable appimage-keeper on PATH: .*\.nvm.*\/bin\/appimage-keeper is inside nvm's/,
    );
    assert.match(r.json?.hint ?? '', /install the standalone executable/);
    // A node outside nvm is on PATH, so an npm install into a stable prefix would do too.
    assert.match(r.json?.hint ?? '', /npm install -g --prefix ~\/\.local/);

    const human = await installWithNvmNode(n, env, []);
    assert.equal(human.code, 0, human.stderr);
    assert.match(
      human.stdout,
      /^warning: the timer runs .*\.nvm.*switching or removing that Node version breaks the timer$/m,
    );
    assert.match(human.stdout, /^ {2}hint: install the standalone executable/m);

    const d = await doctor(env);
    assert.equal(d.schedule.status, 'warn', d.schedule.message);
    assert.match(d.schedule.message, /inside nvm's directory for one Node version/);

    // What used to happen to everyone: the version is removed, and the timer's command is gone.
    await rm(n.nvmNode);
    const broken = await doctor(env);
    assert.equal(broken.code, 1);
    assert.equal(broken.schedule.status, 'fail');
    assert.equal(broken.schedule.message, `the timer runs ${n.nvmNode}, which does not exist`);
    assert.equal(broken.schedule.hint, 'run `appimage-keeper schedule install` to rewrite the unit');
  });

  void test('a launcher that needs node, with no node outside the version manager, is not used', async () => {
    // No /usr/bin on PATH: the only node the shell sees is nvm's.
    const { n, env } = await home(true, '/nonexistent-bin');
    const r = await installWithNvmNode(n, env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json?.program_kind, 'node');
    assert.match(
      r.json?.warnings.join('\n') ?? '',
      /\.local\/bin\/appimage-keeper --version failed \(it needs node on PATH outside version managers\)/,
    );
    assert.ok(!(r.json?.hint ?? '').includes('npm install'), 'only the standalone executable helps here');
  });

  void test('the interval survives in the rewrite hint', async () => {
    const { n, env } = await home(true);
    assert.equal((await installWithNvmNode(n, env, ['--json'], ['--every', '6h'])).code, 0);
    await rm(join(n.localBin, 'appimage-keeper'));
    const d = await doctor(env);
    assert.equal(d.schedule.hint, 'run `appimage-keeper schedule install --every 6h` to rewrite the unit');
  });
});
