// `--system` for real, as root under umask 077 inside a private mount namespace (tmpfs over the FHS
// folders): what it writes is root's and readable by all, another user runs the app but may not use
// --system, doctor --system catches a group-writable folder, and schedule install writes system units.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { CLI_PATH } from '../../helpers/run-cli.js';
import {
  namespaceUnavailable,
  runInSystemNamespace,
  stepJson,
  type DoctorJson,
  type StepResult,
} from '../../helpers/system-namespace.js';

const APP = 'sysapp';
const cli = (...args: string[]): string[] => [process.execPath, CLI_PATH, ...args];

/** `find -printf '%m %u %y %p'` lines by path. */
function modes(r: StepResult | undefined): Map<string, { mode: string; user: string; type: string }> {
  const map = new Map<string, { mode: string; user: string; type: string }>();
  for (const line of (r?.stdout ?? '').split('\n').filter(Boolean)) {
    const [mode = '', user = '', type = '', ...path] = line.split(' ');
    map.set(path.join(' '), { mode, user, type });
  }
  return map;
}

/** The system config.yml of these tests: the sim is the hub, and apps get a symlink. */
function configText(sim: Sim): string {
  return [
    `hub_release_api_url: ${sim.hubApiUrl}`,
    `hub_release_web_url: ${sim.url}`,
    'hub_proxy: false',
    'create_symlinks: true',
  ].join('\n');
}

const skip = await namespaceUnavailable();
if (skip) console.log(`# skipping the --system end-to-end tests: ${skip}`);

void describe('--system in a private mount namespace', { skip: skip !== undefined }, () => {
  let sim: Sim;
  let home: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    sim = await startSim();
    publishHubRelease(sim, APP, '1.0.0', await fixtureAppImage(APP, '1.0.0'));
    home = await mkdtemp(join(tmpdir(), 'ak-sys-'));
    // Per-user XDG variables must not move any system folder: point them somewhere that stays empty.
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      XDG_DATA_HOME: join(home, 'data'),
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      APPIMAGE_KEEPER_PROXY_BUILTINS: '',
    };
  });
  after(async () => {
    await sim.stop();
    await rm(home, { recursive: true, force: true });
    await disposeFixtureAppImages();
  });

  void test('adopt, rollback and re-integration under umask 077 leave 0755 apps and folders, 0644 entries and icons', async () => {
    const NAME = 'sysadopt';
    publishHubRelease(sim, NAME, '2.0.0', await fixtureAppImage(NAME, '2.0.0'));
    const incoming = join(home, 'in');
    await mkdir(incoming, { recursive: true });
    const source = join(incoming, 'source.bin');
    await writeFile(source, await fixtureAppImage(NAME, '1.0.0'));
    const file = join(incoming, `${NAME}-1.0.0-x86_64.AppImage`);
    const config = configText(sim);
    const find = `find /opt/appimages /usr/local/bin /usr/local/share -printf '%m %u %y %p\\n'`;
    const r = await runInSystemNamespace(
      [
        /* 0 */ { argv: cli('--system', 'init', '--global') },
        // Root's copy under umask 077 is 0700, as a download or `cp` by root would be.
        /* 1 */ {
          shell: `printf '%s\\n' '${config.replaceAll('\n', "' '")}' > /etc/appimage-keeper/config.yml && cp ${source} ${file} && chmod +x ${file}`,
        },
        /* 2 */ { argv: cli('--system', '--json', 'adopt', file, '--url', `${sim.url}/e2e/${NAME}`) },
        /* 3 */ { shell: find },
        /* 4 */ { argv: [`/usr/local/bin/${NAME}`], asNobody: true },
        /* 5 */ { argv: cli('--system', '--json', 'update') },
        // A kept version narrowed behind our back is restored with the AppImage mode all the same.
        /* 6 */ { shell: 'chmod 700 /opt/appimages/.appimage-keeper-previous/*' },
        /* 7 */ { argv: cli('--system', '--json', 'rollback', NAME) },
        /* 8 */ { shell: find },
        /* 9 */ { argv: [`/usr/local/bin/${NAME}`], asNobody: true },
        // Entry and icons gone, the menu folders too: `update --force` integrates the app again.
        /* 10 */ { shell: 'rm -rf /usr/local/share/applications /usr/local/share/icons' },
        /* 11 */ { argv: cli('--system', '--json', 'update', '--force', NAME) },
        /* 12 */ { shell: find },
        /* 13 */ { argv: [`/usr/local/bin/${NAME}`], asNobody: true },
      ],
      { env, umask: '077' },
    );
    for (const i of [0, 1, 2, 5, 7, 11])
      assert.equal(r[i]?.code, 0, `step ${i}: ${r[i]?.stdout}${r[i]?.stderr}`);
    const check = (step: StepResult | undefined, what: string): void => {
      const seen = modes(step);
      const listing = [...seen].map(([p, m]) => `${m.mode} ${m.type} ${p}`).join('\n');
      const apps = [...seen].filter(([p, m]) => m.type === 'f' && p.endsWith('.AppImage'));
      assert.ok(apps.length > 0, `${what}: an AppImage in storage\n${listing}`);
      assert.ok(
        [...seen.keys()].some(
          (p) => p.startsWith('/usr/local/share/applications/') && p.endsWith('.desktop'),
        ),
        `${what}: a desktop entry\n${listing}`,
      );
      assert.ok(
        [...seen].some(([p, m]) => p.startsWith('/usr/local/share/icons/') && m.type === 'f'),
        `${what}: an icon\n${listing}`,
      );
      for (const [p, m] of seen) {
        assert.equal(m.user, 'root', `${what}: ${p} is owned by ${m.user}`);
        if (m.type === 'l') continue;
        const want = m.type === 'd' || p.endsWith('.AppImage') ? '755' : '644';
        assert.equal(m.mode, want, `${what}: ${p}\n${listing}`);
      }
    };
    check(r[3], 'after adopt');
    assert.equal(r[4]?.code, 0, `nobody runs the adopted app: ${r[4]?.stderr}`);
    assert.equal(r[4]?.stdout.trim(), `${NAME} 1.0.0`);
    check(r[8], 'after rollback');
    assert.equal(r[9]?.code, 0, `nobody runs the restored app: ${r[9]?.stderr}`);
    assert.equal(r[9]?.stdout.trim(), `${NAME} 1.0.0`);
    check(r[12], 'after re-integration');
    assert.equal(r[13]?.stdout.trim(), `${NAME} 2.0.0`, r[13]?.stderr);
  });

  void test('root under umask 077: 0755/0644 root files, nobody runs the app, doctor and schedule', async () => {
    const config = configText(sim);
    const recipe = [
      `name: ${APP}`,
      'strategy:',
      '  strategy: forge',
      `  repository: ${sim.url}/e2e/${APP}`,
      `  asset_match: "${APP}-*"`,
    ].join('\n');
    const managed =
      '/opt/appimages /usr/local/bin /usr/local/share /var/lib/appimage-keeper /etc/appimage-keeper';
    const r = await runInSystemNamespace(
      [
        /* 0 */ { argv: cli('--system', 'init', '--global') },
        /* 1 */ {
          shell: `printf '%s\\n' '${config}' > /etc/appimage-keeper/config.yml && printf '%s\\n' '${recipe.replaceAll('\n', "' '")}' > /etc/appimage-keeper/apps/${APP}.yml`,
        },
        /* 2 */ { argv: cli('--system', '--json', 'update') },
        /* 3 */ { shell: `find ${managed} -printf '%m %u %y %p\\n'` },
        /* 4 */ { argv: [`/usr/local/bin/${APP}`], asNobody: true },
        /* 5 */ { argv: cli('--system', '--json', 'list'), asNobody: true },
        /* 6 */ { shell: `APPIMAGE_KEEPER_SYSTEM=1 ${cli('--json', 'list').join(' ')}`, asNobody: true },
        /* 7 */ { argv: cli('--system', '--json', 'doctor') },
        /* 8 */ { shell: 'chmod g+w /opt/appimages' },
        /* 9 */ { argv: cli('--system', '--json', 'doctor') },
        // A fresh /run hides any running systemd: the units are written and the commands printed.
        /* 10 */ {
          shell: `mount -t tmpfs tmpfs /run && ${cli('--system', '--json', 'schedule', 'install').join(' ')}`,
        },
        /* 11 */ {
          shell:
            'cat /etc/systemd/system/appimage-keeper.service; stat -c "%a %U" /etc/systemd/system/appimage-keeper.timer',
        },
        /* 12 */ { argv: cli('--json', 'list') },
        /* 13 */ {
          shell: `HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent/c XDG_STATE_HOME=/nonexistent/s ${cli('--json', 'list').join(' ')}`,
          asNobody: true,
        },
        /* 14 */ { shell: 'stat -c "%a" /var/lib/appimage-keeper/state.json' },
        /* 15 */ {
          shell: `HOME=/nonexistent XDG_CONFIG_HOME=/nonexistent/c XDG_STATE_HOME=/nonexistent/s ${cli('list').join(' ')}`,
          asNobody: true,
        },
        // A recipe another user could edit is never acted on: root would run what they wrote.
        /* 16 */ { shell: `chmod g+w /etc/appimage-keeper/apps/${APP}.yml` },
        /* 17 */ { argv: cli('--system', '--json', 'update') },
        /* 18 */ {
          shell: `chown 65534 /etc/appimage-keeper/apps/${APP}.yml && chmod g-w /etc/appimage-keeper/apps/${APP}.yml`,
        },
        /* 19 */ { argv: cli('--system', '--json', 'check') },
      ],
      { env, umask: '077' },
    );
    assert.equal(r[0]?.code, 0, r[0]?.stderr);
    assert.equal(r[1]?.code, 0, r[1]?.stderr);
    const update = stepJson<{ apps: { name: string; status: string; path: string }[] }>(r[2]);
    assert.equal(r[2]?.code, 0, r[2]?.stderr);
    const app = update.apps.find((a) => a.name === APP);
    assert.equal(app?.status, 'updated', r[2]?.stdout);
    assert.ok(app.path.startsWith('/opt/appimages/'), app.path);

    // Everything we wrote is root's; folders 0755, the AppImage 0755, entries and icons 0644.
    const seen = modes(r[3]);
    for (const [path, m] of seen) assert.equal(m.user, 'root', `${path} is owned by ${m.user}`);
    const at = (p: string): string => seen.get(p)?.mode ?? `missing (${[...seen.keys()].join(', ')})`;
    assert.equal(at('/opt/appimages'), '755');
    assert.equal(at(app.path), '755');
    assert.equal(at('/var/lib/appimage-keeper'), '755');
    assert.equal(at('/etc/appimage-keeper/config.yml'), '644');
    assert.equal(at('/etc/appimage-keeper/apps'), '755');
    assert.equal(seen.get(`/usr/local/bin/${APP}`)?.type, 'l');
    const entries = [...seen].filter(
      ([p]) => p.startsWith('/usr/local/share/applications/') && p.endsWith('.desktop'),
    );
    assert.equal(entries.length, 1, [...seen.keys()].join('\n'));
    assert.equal(entries[0]?.[1].mode, '644');
    const icons = [...seen].filter(
      ([p, m]) => p.startsWith('/usr/local/share/icons/hicolor/') && m.type === 'f',
    );
    assert.ok(icons.length > 0, 'an icon was installed');
    for (const [p, m] of icons) assert.equal(m.mode, '644', p);
    for (const [p, m] of seen) {
      if (
        m.type === 'd' &&
        !p.startsWith('/etc/appimage-keeper') &&
        !p.startsWith('/var/lib/appimage-keeper')
      )
        assert.equal(m.mode, '755', `folder ${p}`);
    }

    // Another user runs the app through the shared symlink, but may not use --system.
    assert.equal(r[4]?.code, 0, r[4]?.stderr);
    assert.equal(r[4]?.stdout.trim(), `${APP} 1.0.0`);
    for (const refused of [r[5], r[6]]) {
      assert.equal(refused?.code, 2, refused?.stderr);
      assert.equal(stepJson<{ error: { code: string } }>(refused).error.code, 'SYSTEM_NEEDS_ROOT');
    }

    // doctor --system: clean, then a group-writable storage folder fails with the fix.
    const clean = stepJson<DoctorJson>(r[7]).checks.find((c) => c.id === 'system-permissions');
    assert.equal(clean?.status, 'ok', JSON.stringify(clean));
    assert.equal(r[9]?.code, 1, r[9]?.stdout);
    const bad = stepJson<DoctorJson>(r[9]).checks.find((c) => c.id === 'system-permissions');
    assert.equal(bad?.status, 'fail', JSON.stringify(bad));
    assert.match(bad.message, /\/opt\/appimages is writable by its group/);
    assert.match(bad.hint ?? '', /chmod go-w \/opt\/appimages/);

    // schedule install --system without a running systemd: system units, the commands to enable them.
    const schedule = stepJson<{
      files: string[];
      applied: boolean;
      commands: string[];
      exec_start?: string[];
      linger: boolean | null;
    }>(r[10]);
    assert.equal(r[10]?.code, 0, r[10]?.stderr);
    assert.deepEqual(schedule.files, [
      '/etc/systemd/system/appimage-keeper.service',
      '/etc/systemd/system/appimage-keeper.timer',
    ]);
    assert.equal(schedule.applied, false);
    assert.ok(
      schedule.commands.includes('systemctl --system enable --now appimage-keeper.timer'),
      schedule.commands.join('\n'),
    );
    // A system timer runs without anyone logged in: lingering is a user manager's matter, never root's.
    assert.equal(schedule.linger, null);
    assert.match(r[11]?.stdout ?? '', /^ExecStart=.* "--system" "--quiet" "update"$/m);
    assert.match(r[11]?.stdout ?? '', /^644 root$/m);

    // Root without --system: per-user layout, and the one-time notice names --system (stderr only).
    assert.equal(r[12]?.code, 0, r[12]?.stderr);
    assert.deepEqual(stepJson<{ apps: unknown[] }>(r[12]).apps, []);

    // A user's list shows the system's apps, read-only and apart from their own.
    assert.equal(r[13]?.code, 0, `${r[13]?.stdout}${r[13]?.stderr}`);
    const mine = stepJson<{
      apps: unknown[];
      system_apps?: { name: string; version: string; file_present: boolean }[];
    }>(r[13]);
    assert.deepEqual(mine.apps, []);
    assert.deepEqual(
      mine.system_apps?.map((a) => [a.name, a.version, a.file_present]),
      [[APP, '1.0.0', true]],
    );
    assert.equal(r[14]?.stdout.trim(), '644');
    assert.match(
      r[15]?.stdout ?? '',
      /^system apps \(installed for every user with --system; read-only here\):\nNAME +VERSION +FILE\nsysapp +1\.0\.0 +\/opt\/appimages\//m,
    );

    for (const [step, problem, fix] of [
      [r[17], /is writable by its group/, /chmod go-w \/etc\/appimage-keeper\/apps\/sysapp\.yml/],
      [r[19], /is owned by uid 65534, not root/, /chown root:root \/etc\/appimage-keeper\/apps\/sysapp\.yml/],
    ] as const) {
      assert.equal(step?.code, 2, `${step?.stdout}${step?.stderr}`);
      const error = stepJson<{ error: { code: string; message: string; hint: string } }>(step).error;
      assert.equal(error.code, 'SYSTEM_CONFIG_UNSAFE');
      assert.match(error.message, problem);
      assert.match(error.hint, fix);
    }
  });
});
