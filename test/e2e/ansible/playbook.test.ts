// examples/ansible/site.yml for real: Debian's ansible-playbook against localhost (-c local) as root,
// inside a private mount namespace with tmpfs over the system folders, the simulator as the forge.
// The first run reports changes, the second none; a lock whose entry moved installs exactly that
// release, not the newer one upstream. The two recaps are printed so they can be quoted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { CLI_PATH, REPO_ROOT, runCli } from '../../helpers/run-cli.js';
import { shellQuote } from '../../../src/core/shell-quote.js';
import {
  SYSTEM_MOUNTS,
  namespaceUnavailable,
  runInSystemNamespace,
  type StepResult,
} from '../../helpers/system-namespace.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';

const PLAYBOOK = join(REPO_ROOT, 'examples', 'ansible', 'site.yml');
const APPS = ['ansalpha', 'ansbeta'] as const;

/** ok/changed/failed… of the one host in a PLAY RECAP, or undefined without one. */
function recapOf(output: string): { line: string; counts: Record<string, number> } | undefined {
  const line = output.split('\n').find((l) => /^localhost\s+:\s+ok=\d+/.test(l));
  if (!line) return undefined;
  const counts = Object.fromEntries(
    [...line.matchAll(/(\w+)=(\d+)/g)].map((m) => [m[1] ?? '', Number(m[2])]),
  );
  return { line: line.replace(/\s+/g, ' ').trim(), counts };
}

async function whyNot(): Promise<string | undefined> {
  if (spawnSync('ansible-playbook', ['--version'], { stdio: 'ignore' }).status !== 0)
    return 'ansible-playbook is not installed (Debian package ansible-core; scripts/ensure-tools.mjs installs it)';
  // The wrapper runs this node: it must not sit under a folder the namespace mounts over.
  if (SYSTEM_MOUNTS.some((d) => process.execPath.startsWith(`${d}/`)))
    return `node (${process.execPath}) is under a folder the namespace hides`;
  return namespaceUnavailable();
}

const skip = await whyNot();
if (skip) console.log(`# skipping the Ansible playbook test: ${skip}`);

void describe('examples/ansible/site.yml', { skip: skip !== undefined }, () => {
  let sim: Sim;
  let work: string;
  let lab: TmpHome;
  before(async () => {
    sim = await startSim();
    work = await mkdtemp(join(tmpdir(), 'ak-ansible-'));
    lab = await makeTmpHome();
  });
  after(async () => {
    await sim.stop();
    await rm(work, { recursive: true, force: true });
    await lab.cleanup();
    await disposeFixtureAppImages();
  });

  const publish = async (app: string, version: string): Promise<void> => {
    publishHubRelease(sim, app, version, await fixtureAppImage(app, version));
  };

  void test('first run changes, second changed=0, a moved lock entry installs exactly that release', async () => {
    const settings = {
      hub_release_api_url: sim.hubApiUrl,
      hub_release_web_url: sim.url,
      hub_proxy: false,
      create_symlinks: true,
    };
    const recipe = (app: string) => ({
      strategy: { strategy: 'forge', repository: `${sim.url}/e2e/${app}`, asset_match: `${app}-*` },
    });

    // The machine that tests releases: a per-user config with the same recipes writes the lock.
    await lab.writeConfig(
      Object.entries(settings)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('\n'),
    );
    for (const app of APPS) {
      await lab.writeRecipe(
        app,
        `name: ${app}\nstrategy:\n  strategy: forge\n  repository: ${sim.url}/e2e/${app}\n  asset_match: "${app}-*"\n`,
        'flat',
      );
    }
    const lockNow = async (to: string): Promise<void> => {
      const r = await runCli(['--json', 'lock'], { env: lab.env });
      assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
      await copyFile(join(lab.configDir, 'appimage-keeper.lock'), to);
    };
    for (const app of APPS) await publish(app, '1.0.0');
    const lock1 = join(work, 'lock1');
    const lock2 = join(work, 'lock2');
    await lockNow(lock1);
    await publish('ansalpha', '2.0.0');
    await lockNow(lock2);
    // Newer upstream than either lock: a locked run must not take them.
    await publish('ansalpha', '3.0.0');
    await publish('ansbeta', '2.0.0');

    // Stands in for the standalone executable, which takes minutes to build.
    const wrapper = join(work, 'appimage-keeper');
    await writeFile(
      wrapper,
      `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CLI_PATH)} "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    await chmod(work, 0o755);
    const varsFor = async (lock: string): Promise<string> => {
      const file = join(work, `vars-${lock === lock1 ? 1 : 2}.json`);
      await writeFile(
        file,
        JSON.stringify({
          appimage_keeper_executable_path: wrapper,
          appimage_keeper_settings: settings,
          appimage_keeper_recipes: Object.fromEntries(APPS.map((a) => [a, recipe(a)])),
          appimage_keeper_lock_file: lock,
        }),
      );
      return file;
    };
    const ansibleHome = join(work, 'ansible');
    await mkdir(join(ansibleHome, 'tmp'), { recursive: true });
    await writeFile(join(ansibleHome, 'ansible.cfg'), '');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: ansibleHome,
      ANSIBLE_HOME: ansibleHome,
      ANSIBLE_CONFIG: join(ansibleHome, 'ansible.cfg'),
      ANSIBLE_LOCAL_TEMP: join(ansibleHome, 'tmp'),
      ANSIBLE_REMOTE_TEMP: join(ansibleHome, 'tmp'),
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3',
      ANSIBLE_RETRY_FILES_ENABLED: '0',
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      APPIMAGE_KEEPER_PROXY_BUILTINS: '',
    };
    const play = async (lock: string): Promise<{ argv: string[] }> => ({
      argv: [
        'ansible-playbook',
        '-c',
        'local',
        '-i',
        'localhost,',
        '-e',
        `@${await varsFor(lock)}`,
        PLAYBOOK,
      ],
    });
    const r = await runInSystemNamespace(
      [
        // A fresh /run hides any running systemd: the timer's units are written, not enabled.
        { shell: 'mount -t tmpfs tmpfs /run' },
        /* 1 */ await play(lock1),
        /* 2 */ await play(lock1),
        /* 3 */ { shell: `for a in ${APPS.join(' ')}; do /usr/local/bin/$a; done` },
        /* 4 */ await play(lock2),
        /* 5 */ { shell: `for a in ${APPS.join(' ')}; do /usr/local/bin/$a; done` },
        /* 6 */ {
          shell:
            'stat -c "%a %U %n" /usr/local/bin/appimage-keeper /etc/appimage-keeper/config.yml /etc/appimage-keeper/appimage-keeper.lock /etc/appimage-keeper/apps/*.yml /etc/systemd/system/appimage-keeper.*; cat /etc/systemd/system/appimage-keeper.service',
        },
        /* 7 */ { argv: ['/usr/local/bin/appimage-keeper', '--system', '--json', 'doctor'] },
      ],
      { env, umask: '077', timeoutMs: 600_000 },
    );
    const shown = (s: StepResult | undefined): string => `exit ${s?.code}\n${s?.stdout}${s?.stderr}`;
    assert.equal(r[0]?.code, 0, shown(r[0]));
    const first = recapOf(r[1]?.stdout ?? '');
    const second = recapOf(r[2]?.stdout ?? '');
    const third = recapOf(r[4]?.stdout ?? '');
    console.log(`ansible recap, first run:  ${first?.line ?? '(no recap)'}`);
    console.log(`ansible recap, second run: ${second?.line ?? '(no recap)'}`);
    console.log(`ansible recap, moved lock: ${third?.line ?? '(no recap)'}`);

    for (const run of [r[1], r[2], r[4]]) assert.equal(run?.code, 0, shown(run));
    assert.ok(first && second && third, shown(r[1]));
    assert.equal(first.counts.failed, 0);
    assert.ok((first.counts.changed ?? 0) > 0, first.line);
    assert.match(r[1]?.stdout ?? '', /TASK \[Install the locked releases\] \*+\nchanged: \[localhost\]/);
    assert.equal(second.counts.changed, 0, shown(r[2]));
    assert.equal(second.counts.failed, 0);
    assert.equal(r[3]?.stdout, 'ansalpha 1.0.0\nansbeta 1.0.0\n', shown(r[3]));

    // Only the lock file and the one app it moved change; the newer upstream releases stay out.
    assert.match(r[4]?.stdout ?? '', /TASK \[Copy the lock file\] \*+\nchanged: \[localhost\]/);
    assert.match(r[4]?.stdout ?? '', /TASK \[Install the locked releases\] \*+\nchanged: \[localhost\]/);
    assert.equal(third.counts.changed, 2, shown(r[4]));
    assert.equal(r[5]?.stdout, 'ansalpha 2.0.0\nansbeta 1.0.0\n', shown(r[5]));

    // Root's and readable by all under umask 077; the timer follows the lock.
    const stats = r[6]?.stdout ?? '';
    assert.match(stats, /^755 root \/usr\/local\/bin\/appimage-keeper$/m);
    for (const f of ['config.yml', 'appimage-keeper.lock', 'apps/ansalpha.yml', 'apps/ansbeta.yml'])
      assert.match(stats, new RegExp(`^644 root /etc/appimage-keeper/${f.replaceAll('.', '\\.')}$`, 'm'));
    assert.match(stats, /^644 root \/etc\/systemd\/system\/appimage-keeper\.timer$/m);
    assert.match(stats, /^ExecStart=.* "--system" "--quiet" "update" "--locked"$/m);
    assert.match(r[1]?.stdout ?? '', /systemd is not running here; once it is, run:/);
    const doctor = JSON.parse(r[7]?.stdout ?? '{}') as { checks?: { id: string; status: string }[] };
    assert.equal(doctor.checks?.find((c) => c.id === 'system-permissions')?.status, 'ok', shown(r[7]));
  });
});
