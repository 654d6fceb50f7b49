import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseInterval } from '../../src/system/schedule/interval.js';
import { renderUnits } from '../../src/system/schedule/units.js';
import { systemdEnvQuote, systemdQuote } from '../../src/system/schedule/unit-words.js';
import { CLI_PATH, REPO_ROOT, runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { fakeProgram } from './fake-program.js';

const ANALYZE = '/usr/bin/systemd-analyze';

/**
 * `systemd-analyze verify` on unit files; undefined when it cannot run in this sandbox. It also
 * looks up every `Documentation=man:` page, so `manPath` holds the man page the package ships.
 */
function verify(files: string[], manPath: string): Promise<{ code: number; stderr: string } | undefined> {
  return new Promise((resolve) => {
    const env = { ...process.env, MANPATH: manPath };
    execFile(ANALYZE, ['verify', ...files], { timeout: 30_000, env }, (err, _stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      if (
        (err && typeof err.code !== 'number') ||
        /Failed to (initialize manager|lookup RuntimeDirectory)/.test(stderr)
      )
        resolve(undefined);
      else resolve({ code, stderr });
    });
  });
}

void describe('timer schedule and unit text', () => {
  void test('--every values', () => {
    assert.deepEqual(parseInterval(undefined), {
      onCalendar: 'daily',
      randomizedDelaySec: 3600,
      label: 'daily',
    });
    assert.deepEqual(parseInterval('6h'), {
      onCalendar: '*-*-* 00/6:00:00',
      randomizedDelaySec: 2160,
      label: 'every 6h',
    });
    assert.deepEqual(parseInterval('30m'), {
      onCalendar: '*-*-* *:00/30:00',
      randomizedDelaySec: 180,
      label: 'every 30m',
    });
    assert.equal(parseInterval('weekly').onCalendar, 'weekly');
    assert.equal(parseInterval('24h').onCalendar, 'daily');
    assert.deepEqual(parseInterval('Mon..Fri 09:00'), {
      onCalendar: 'Mon..Fri 09:00',
      randomizedDelaySec: 900,
      label: 'OnCalendar=Mon..Fri 09:00',
    });
    assert.throws(() => parseInterval('5h'), /cannot run evenly every 5h/);
    assert.throws(() => parseInterval('7m'), /cannot run evenly/);
    assert.throws(() => parseInterval('daily\nExecStart=/bin/sh'), /invalid interval/);
  });

  void test('ExecStart arguments survive spaces, quotes, % and $', () => {
    assert.equal(systemdQuote('/home/a b/x'), '"/home/a b/x"');
    assert.equal(systemdQuote('50%$HOME"\\'), '"50%%$$HOME\\"\\\\"');
    // systemd ends a unit line at a carriage return as well as at a newline.
    assert.equal(systemdQuote('a\rb\nc\x1bd'), '"a\\x0db\\nc\\x1bd"');
    assert.equal(systemdEnvQuote('PATH=/a $b/50%'), '"PATH=/a $b/50%%"');
  });

  void test('the rendered units pass systemd-analyze verify', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-'));
    try {
      const cfg = join(dir, 'my config %h');
      const u = renderUnits(
        'ak-verify',
        {
          program: [process.execPath, CLI_PATH],
          configDir: cfg,
          unitPath: `/usr/bin:${join(dir, '50% $x')}`,
        },
        parseInterval('6h'),
      );
      assert.match(u.service, /^Type=oneshot$/m);
      // Another run holding the lock (3) and no network (75) are not failures of the unit.
      assert.match(u.service, /^SuccessExitStatus=3 75$/m);
      assert.ok(u.service.includes(`Environment="PATH=/usr/bin:${join(dir, '50%% $x')}"\n`), u.service);
      assert.ok(
        u.service.includes(
          `ExecStart="${process.execPath}" "${CLI_PATH}" "--config-dir" "${join(dir, 'my config %%h')}" "--quiet" "update"`,
        ),
      );
      assert.match(u.timer, /^Persistent=true$/m);
      assert.match(u.timer, /^RandomizedDelaySec=2160$/m);
      assert.match(u.timer, /^Unit=ak-verify\.service$/m);
      assert.match(u.timer, /^WantedBy=timers\.target$/m);
      const service = join(dir, u.serviceName);
      const timer = join(dir, u.timerName);
      await writeFile(service, u.service);
      await writeFile(timer, u.timer);
      // The page `npm install` puts in man1 (package.json `man`), built with the CLI.
      await mkdir(join(dir, 'man', 'man1'), { recursive: true });
      await copyFile(
        join(REPO_ROOT, 'dist', 'appimage-keeper.1'),
        join(dir, 'man', 'man1', 'appimage-keeper.1'),
      );
      const r = await verify([service, timer], join(dir, 'man'));
      if (!r) {
        t.skip('systemd-analyze verify cannot run here');
        return;
      }
      assert.equal(r.code, 0, r.stderr);
      // Warnings (unknown keys, bad values) do not change the exit status: they must not appear.
      assert.equal(r.stderr.trim(), '', r.stderr);
      // Proof the check can fail: a broken unit is reported.
      await writeFile(timer, u.timer.replace('Persistent=true', 'Persistent=sometimes'));
      assert.match((await verify([service, timer], join(dir, 'man')))?.stderr ?? '', /Persistent|boolean/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

void describe('schedule install, status, remove', () => {
  let h: TmpHome;
  let calls: () => Promise<string[][]>;
  let env: NodeJS.ProcessEnv;
  const unitDir = () => join(h.root, 'config', 'systemd', 'user');

  before(async () => {
    h = await makeTmpHome();
    const bin = join(h.root, 'bin');
    calls = (
      await fakeProgram(bin, 'systemctl', [
        {
          match: 'show appimage-keeper.timer',
          stdout:
            'ActiveState=active\nUnitFileState=enabled\nNextElapseUSecRealtime=Tue 2026-06-02 00:31:07 UTC\nLastTriggerUSec=Mon 2026-06-01 00:12:01 UTC\n',
        },
        { match: 'show appimage-keeper.service', stdout: 'Result=success\nExecMainStatus=0\n' },
      ])
    ).calls;
    env = {
      ...h.env,
      PATH: `${bin}:${h.env.PATH ?? ''}`,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    };
  });
  after(() => h.cleanup());

  void test('install writes both units and enables the timer through systemctl --user', async () => {
    const r = await runCli<{ files: string[]; applied: boolean; exec_start: string[] }>(
      ['--json', 'schedule', 'install'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json?.applied, true);
    assert.deepEqual((await readdir(unitDir())).sort(), ['appimage-keeper.service', 'appimage-keeper.timer']);
    assert.deepEqual(r.json?.exec_start, [process.execPath, CLI_PATH, '--quiet', 'update']);
    const timer = await readFile(join(unitDir(), 'appimage-keeper.timer'), 'utf8');
    assert.match(timer, /^OnCalendar=daily$/m);
    // The npm page answers 404 while the package is unpublished: the man page and the repository's docs.
    const service = await readFile(join(unitDir(), 'appimage-keeper.service'), 'utf8');
    assert.deepEqual(
      service.split('\n').filter((l) => l.startsWith('Documentation=')),
      [
        'Documentation=man:appimage-keeper(1)',
        'Documentation=https://github.com/appimage-keeper/appimage-keeper/blob/main/docs/unattended.md',
      ],
    );
    assert.deepEqual(await calls(), [
      ['--user', 'daemon-reload'],
      ['--user', 'enable', '--now', 'appimage-keeper.timer'],
    ]);
  });

  void test('install names `loginctl enable-linger` only while lingering is off', async () => {
    const host = join(h.root, 'host');
    const lingerDir = join(host, 'var', 'lib', 'systemd', 'linger');
    await mkdir(lingerDir, { recursive: true });
    const hostEnv = { ...env, APPIMAGE_KEEPER_HOST_ROOT: host };
    const user = userInfo().username;
    const off = await runCli(['schedule', 'install'], { env: hostEnv });
    assert.equal(off.code, 0, off.stderr);
    assert.ok(
      off.stdout.includes(`loginctl enable-linger ${user}`),
      `the command that lets the timer run while logged out:\n${off.stdout}`,
    );
    assert.match(off.stdout, /only while you are logged in/);
    const offJson = await runCli<{ linger: boolean }>(['--json', 'schedule', 'install'], { env: hostEnv });
    assert.equal(offJson.json?.linger, false);

    await writeFile(join(lingerDir, user), '');
    const on = await runCli(['schedule', 'install'], { env: hostEnv });
    assert.equal(on.code, 0, on.stderr);
    assert.doesNotMatch(on.stdout, /enable-linger/);
    const onJson = await runCli<{ linger: boolean }>(['--json', 'schedule', 'install'], { env: hostEnv });
    assert.equal(onJson.json?.linger, true);
  });

  void test("the shell's proxy goes into the unit, a password stays out; doctor names what the timer lacks", async () => {
    const proxyEnv = {
      ...env,
      https_proxy: 'http://proxy.corp:3128',
      NO_PROXY: '.corp.lan',
      http_proxy: 'http://user:pw-s3cret@proxy.corp:3128',
    };
    const r = await runCli<{ proxy_environment: string[]; proxy_withheld: string[] }>(
      ['--json', 'schedule', 'install'],
      { env: proxyEnv },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json?.proxy_withheld, ['http_proxy']);
    const service = await readFile(join(unitDir(), 'appimage-keeper.service'), 'utf8');
    assert.match(service, /^Environment="?https_proxy=http:\/\/proxy\.corp:3128"?$/m);
    assert.match(service, /^Environment="?no_proxy=\.corp\.lan"?$/m);
    assert.doesNotMatch(service, /s3cret/);
    const human = await runCli(['schedule', 'install'], { env: proxyEnv });
    assert.match(human.stdout, /http_proxy holds a password[^\n]*config\.yml/);
    assert.doesNotMatch(human.stdout + human.stderr, /s3cret/);

    type Doctor = { checks: { id: string; status: string; message: string }[] };
    const doctor = await runCli<Doctor>(['--json', 'doctor'], {
      env: { ...proxyEnv, all_proxy: 'http://p:1' },
    });
    const proxy = doctor.json?.checks.find((c) => c.id === 'proxy');
    assert.equal(proxy?.status, 'warn', doctor.stdout);
    assert.match(proxy?.message ?? '', /http_proxy, all_proxy/);
    assert.doesNotMatch(doctor.stdout, /s3cret/);
    assert.match(doctor.stdout, /user:\*\*\*@proxy\.corp:3128/);
    // Written by install: nothing to warn about once the shell matches the unit.
    const calm = await runCli<Doctor>(['--json', 'doctor'], {
      env: { ...env, https_proxy: 'http://proxy.corp:3128' },
    });
    assert.equal(calm.json?.checks.find((c) => c.id === 'proxy')?.status, 'ok', calm.stdout);
  });

  void test('install without --every keeps the interval of the timer it wrote before', async () => {
    const timerPath = join(unitDir(), 'appimage-keeper.timer');
    const onCalendar = async () => /^OnCalendar=(.*)$/m.exec(await readFile(timerPath, 'utf8'))?.[1];
    assert.equal((await runCli(['schedule', 'install', '--every', '6h'], { env })).code, 0);
    assert.equal(await onCalendar(), '*-*-* 00/6:00:00');
    // Rewriting the unit (as doctor's hint does after a Node upgrade) must not reset it to daily.
    const again = await runCli<{ on_calendar: string }>(['--json', 'schedule', 'install'], { env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await onCalendar(), '*-*-* 00/6:00:00');
    assert.equal(again.json?.on_calendar, '*-*-* 00/6:00:00');
    const raw = await runCli(['schedule', 'install', '--every', 'Mon..Fri 09:00'], { env });
    assert.equal(raw.code, 0, raw.stderr);
    assert.equal((await runCli(['schedule', 'install'], { env })).code, 0);
    assert.equal(await onCalendar(), 'Mon..Fri 09:00');
    // A timer file we did not write says nothing about what the user wants: the default applies.
    await writeFile(timerPath, '[Timer]\nOnCalendar=hourly\n');
    assert.equal((await runCli(['schedule', 'install'], { env })).code, 0);
    assert.equal(await onCalendar(), 'daily');
    await calls();
  });

  void test('status shows next and last run from systemd and the last outcome from state', async () => {
    await mkdir(h.stateDir, { recursive: true });
    await writeFile(
      join(h.stateDir, 'state.json'),
      JSON.stringify({
        schema: 1,
        apps: {},
        forgeKinds: {},
        rateLimits: {},
        lastRun: {
          command: 'update',
          startedAt: '2026-06-01T00:12:01Z',
          finishedAt: '2026-06-01T00:12:09Z',
          summary: { updated: 1, up_to_date: 3, failed: 1 },
          updated: ['hello'],
          failed: ['tool'],
        },
      }),
    );
    const human = await runCli(['schedule', 'status'], { env });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^next run {3}Tue 2026-06-02 00:31:07 UTC$/m);
    assert.match(human.stdout, /^last run {3}Mon 2026-06-01 00:12:01 UTC \(success, exit status 0\)$/m);
    assert.match(human.stdout, /1 updated, 3 up to date, 1 failed/);
    assert.match(human.stdout, /failed: tool/);
    const json = await runCli<{
      installed: boolean;
      on_calendar: string;
      systemd: { next_run: string };
      last_run: { failed: string[] };
    }>(['--json', 'schedule', 'status'], { env });
    assert.equal(json.json?.installed, true);
    assert.equal(json.json?.on_calendar, 'daily');
    assert.equal(json.json?.systemd.next_run, 'Tue 2026-06-02 00:31:07 UTC');
    assert.deepEqual(json.json?.last_run.failed, ['tool']);
  });

  void test('remove disables the timer, deletes the units and reloads', async () => {
    const before = (await calls()).length;
    const r = await runCli(['schedule', 'remove'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await readdir(unitDir()), []);
    assert.deepEqual((await calls()).slice(before), [
      ['--user', 'disable', '--now', 'appimage-keeper.timer'],
      ['--user', 'daemon-reload'],
    ]);
    assert.match((await runCli(['schedule', 'status'], { env })).stdout, /not installed/);
    assert.match((await runCli(['schedule', 'remove'], { env })).stdout, /nothing to remove/);
  });

  void test('without a session bus the exact commands are printed, not run', async () => {
    const noBus = { ...env };
    delete noBus.DBUS_SESSION_BUS_ADDRESS;
    const before = (await calls()).length;
    const r = await runCli(['schedule', 'install', '--every', '12h'], { env: noBus });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {2}systemctl --user daemon-reload$/m);
    assert.match(r.stdout, /^ {2}systemctl --user enable --now appimage-keeper\.timer$/m);
    assert.match(
      await readFile(join(unitDir(), 'appimage-keeper.timer'), 'utf8'),
      /^OnCalendar=\*-\*-\* 00\/12:00:00$/m,
    );
    const status = await runCli(['schedule', 'status'], { env: noBus });
    assert.match(status.stdout, /not asked: no user session bus/);
    const rm1 = await runCli(['schedule', 'remove'], { env: noBus });
    assert.match(rm1.stdout, /^ {2}systemctl --user stop appimage-keeper\.timer$/m);
    assert.deepEqual(await readdir(unitDir()), []);
    assert.equal((await calls()).length, before, 'systemctl was never run');
  });

  void test('a non-default config dir gets its own units and passes --config-dir; systemctl errors are reported', async () => {
    const other = join(h.root, 'other config');
    const r = await runCli<{ files: string[]; exec_start: string[] }>(
      ['--json', '--config-dir', other, 'schedule', 'install', '--every', 'weekly'],
      { env },
    );
    assert.equal(r.code, 0, r.stderr);
    const name = r.json?.files[0]?.split('/').at(-1) ?? '';
    assert.match(name, /^appimage-keeper-.+\.service$/);
    assert.notEqual(name, 'appimage-keeper.service');
    assert.deepEqual(r.json?.exec_start.slice(2), ['--config-dir', other, '--quiet', 'update']);
    await runCli(['--config-dir', other, 'schedule', 'remove'], { env });

    const bin = join(h.root, 'bin-failing');
    await fakeProgram(bin, 'systemctl', [
      { match: 'enable', code: 1, stderr: 'Failed to enable unit: Access denied\n' },
    ]);
    const failing = await runCli(['schedule', 'install'], {
      env: { ...env, PATH: `${bin}:${h.env.PATH ?? ''}` },
    });
    assert.equal(failing.code, 1);
    assert.match(
      failing.stderr,
      /systemctl --user enable --now appimage-keeper\.timer failed: Failed to enable unit: Access denied/,
    );
    assert.match(failing.stderr, /run the remaining commands yourself/);

    const bad = await runCli(['schedule', 'status', '--every', 'daily'], { env });
    assert.equal(bad.code, 2);
    const badInterval = await runCli(['schedule', 'install', '--every', '5h'], { env });
    assert.equal(badInterval.code, 2);
    assert.match(badInterval.stderr, /hours must divide 24/);
  });
});
