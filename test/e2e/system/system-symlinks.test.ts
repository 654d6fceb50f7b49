// A `--system` run judges what a link points to, and every folder above it up to /, before it reads a
// recipe or runs a resolver as root (as sudo and sshd's StrictModes judge their files): a link in
// apps/ to another account's folder, a linked recipe file or folder, and an absolute script_path in a
// folder others can write are refused by validate, update and doctor; root-only links still work.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_PATH } from '../../helpers/run-cli.js';
import {
  namespaceUnavailable,
  NOBODY,
  runInSystemNamespace,
  stepJson,
  type DoctorJson,
  type StepResult,
} from '../../helpers/system-namespace.js';

// Below a tmpfs of the namespace (root's, 0755, as are /usr/local and /usr): only what a case sets up differs.
const AK = '/usr/local/share/ak';
const cfg = (id: string): string => `${AK}/cfg-${id}`;
const cli = (id: string, ...args: string[]): string[] => [
  process.execPath,
  CLI_PATH,
  '--system',
  '--config-dir',
  cfg(id),
  '--json',
  ...args,
];

// The resolver leaves a mark when root runs it, then names a download nobody serves.
const RESOLVER = [
  '#!/bin/bash',
  `touch ${AK}/ran-"$APP_NAME"`,
  'echo "http://127.0.0.1:9/$APP_NAME.AppImage"',
  'echo 1.0',
].join('\n');

const recipe = (name: string, script: string): string =>
  `name: ${name}\nstrategy:\n  strategy: script\n  script_path: ${script}\n`;

// Each case in its own config folder, so one refusal does not hide another.
const SETUP = [
  'set -e',
  `mkdir -p ${AK}/safe-bin`,
  `printf '%s\\n' '${RESOLVER.replaceAll("'", "'\\''")}' > ${AK}/safe-bin/resolver.sh`,
  `chmod 755 ${AK}/safe-bin/resolver.sh`,
  ...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => `mkdir -p ${cfg(id)}/apps`),
  // a: a root-owned link in apps/ to a folder (recipe and resolver) owned by nobody.
  `mkdir ${AK}/nobody-a`,
  `printf '%s' '${recipe('a', 'resolver.sh')}' > ${AK}/nobody-a/a.yml`,
  `cp ${AK}/safe-bin/resolver.sh ${AK}/nobody-a/resolver.sh`,
  `chown -R ${NOBODY}:${NOBODY} ${AK}/nobody-a`,
  `ln -s ${AK}/nobody-a ${cfg('a')}/apps/a`,
  // b: a linked recipe file owned by nobody, in a root-only folder.
  `mkdir ${AK}/b-recipes`,
  `printf '%s' '${recipe('b', `${AK}/safe-bin/resolver.sh`)}' > ${AK}/b-recipes/b.yml`,
  `chown ${NOBODY} ${AK}/b-recipes/b.yml`,
  `ln -s ${AK}/b-recipes/b.yml ${cfg('b')}/apps/b.yml`,
  // c: a linked recipe folder, root's, whose parent its group can write.
  `mkdir -p ${AK}/c-parent/c && chmod 775 ${AK}/c-parent`,
  `printf '%s' '${recipe('c', `${AK}/safe-bin/resolver.sh`)}' > ${AK}/c-parent/c/c.yml`,
  `ln -s ${AK}/c-parent/c ${cfg('c')}/apps/c`,
  // d: an absolute script_path, root's, in a folder owned by nobody.
  `mkdir ${AK}/d-bin && cp -p ${AK}/safe-bin/resolver.sh ${AK}/d-bin/ && chown ${NOBODY} ${AK}/d-bin`,
  `printf '%s' '${recipe('d', `${AK}/d-bin/resolver.sh`)}' > ${cfg('d')}/apps/d.yml`,
  // e: an absolute script_path two folders below one its group can write.
  `mkdir -p ${AK}/e-parent/bin && chmod 775 ${AK}/e-parent && cp -p ${AK}/safe-bin/resolver.sh ${AK}/e-parent/bin/`,
  `printf '%s' '${recipe('e', `${AK}/e-parent/bin/resolver.sh`)}' > ${cfg('e')}/apps/e.yml`,
  // f: an absolute script_path in a root-owned sticky folder anyone can write (like /tmp).
  `mkdir ${AK}/f-tmp && chmod 1777 ${AK}/f-tmp && cp -p ${AK}/safe-bin/resolver.sh ${AK}/f-tmp/`,
  `printf '%s' '${recipe('f', `${AK}/f-tmp/resolver.sh`)}' > ${cfg('f')}/apps/f.yml`,
  // g: a root recipe beside a link in apps/ that leads, through two links, back to itself.
  `ln -s ${AK}/g-loop2 ${AK}/g-loop && ln -s ${AK}/g-loop ${AK}/g-loop2 && ln -s ${AK}/g-loop ${cfg('g')}/apps/loop.yml`,
  `printf '%s' '${recipe('g', `${AK}/safe-bin/resolver.sh`)}' > ${cfg('g')}/apps/g.yml`,
  // s: links everywhere, all of them root's alone: the apps folder and the script's folder.
  `mkdir -p ${cfg('s')} ${AK}/s-apps && ln -s ${AK}/s-apps ${cfg('s')}/apps && ln -s ${AK}/safe-bin ${AK}/s-link`,
  `printf '%s' '${recipe('s', `${AK}/s-link/resolver.sh`)}' > ${AK}/s-apps/s.yml`,
  `ln -s ${AK}/s-apps ${AK}/s-apps/back-up`,
].join('\n');

interface Failure {
  error: { code: string; message: string; hint: string };
}
interface Validate {
  apps: { name: string; ok: boolean; error?: Failure['error'] }[];
}
interface Update {
  apps: { name: string; status: string; error: Failure['error'] | null }[];
}

const skip = await namespaceUnavailable();
if (skip) console.log(`# skipping the --system symlink tests: ${skip}`);

void describe(
  '--system judges links by their targets and the folders above them',
  { skip: skip !== undefined },
  () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 's'] as const;
    type Id = (typeof ids)[number];
    let home: string;
    let r: StepResult[] = [];
    const step = (id: Id, cmd: 'validate' | 'update'): StepResult | undefined =>
      r[1 + 2 * ids.indexOf(id) + (cmd === 'update' ? 1 : 0)];
    const ran = (): string[] => (r.at(-1)?.stdout ?? '').split('\n').filter((n) => n.startsWith('ran-'));
    // doctor's system-permissions check (step `at`) fails naming the path, owner, mode and fix.
    const doctorFails = (at: number, problem: RegExp, fix: string): void => {
      const check = stepJson<DoctorJson>(r.at(at)).checks.find((c) => c.id === 'system-permissions');
      assert.equal(check?.status, 'fail', JSON.stringify(check));
      assert.match(check.message, problem);
      assert.ok(check.hint?.includes(fix), check.hint ?? '');
    };

    // One namespace for every case (each in its own config folder); each test reads its steps.
    before(async () => {
      home = await mkdtemp(join(tmpdir(), 'ak-syslinks-'));
      const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_STATE_HOME: join(home, 'state'),
        NO_COLOR: '1',
        LANG: 'C.UTF-8',
        APPIMAGE_KEEPER_PROXY_BUILTINS: '',
      };
      r = await runInSystemNamespace(
        [
          { shell: SETUP },
          ...ids.flatMap((id) => [{ argv: cli(id, 'validate') }, { argv: cli(id, 'update') }]),
          { argv: cli('a', 'doctor') },
          { argv: cli('d', 'doctor') },
          { shell: `ls ${AK}` },
        ],
        { env, umask: '022' },
      );
      assert.equal(r[0]?.code, 0, r[0]?.stderr);
    });
    after(async () => {
      await rm(home, { recursive: true, force: true });
    });

    // The configuration itself reaches something others can change: nothing is read (exit 2).
    const refusesConfig = (id: Id, problem: RegExp, fix: string): void => {
      for (const cmd of ['validate', 'update'] as const) {
        const res = step(id, cmd);
        assert.equal(res?.code, 2, `${id} ${cmd}: ${res?.stdout}${res?.stderr}`);
        const { error } = stepJson<Failure>(res);
        assert.equal(error.code, 'SYSTEM_CONFIG_UNSAFE', `${id} ${cmd}`);
        assert.match(error.message, problem);
        assert.ok(error.hint.includes(fix), `${id} ${cmd}: ${error.hint}`);
      }
      assert.ok(!ran().includes(`ran-${id}`), `root ran the resolver of ${id}`);
    };

    // The recipe is root's, its script is not root's alone: that app is refused and named.
    const refusesScript = (id: Id, problem: RegExp, fix: string): void => {
      const validate = stepJson<Validate>(step(id, 'validate'));
      assert.equal(step(id, 'validate')?.code, 1, step(id, 'validate')?.stdout);
      const app = validate.apps.find((a) => a.name === id);
      assert.equal(app?.ok, false, JSON.stringify(validate));
      assert.equal(app.error?.code, 'SYSTEM_CONFIG_UNSAFE');
      assert.match(app.error.message, problem);
      assert.ok(app.error.hint.includes(fix), app.error.hint);
      const update = stepJson<Update>(step(id, 'update'));
      const outcome = update.apps.find((a) => a.name === id);
      assert.equal(outcome?.status, 'failed', JSON.stringify(update));
      assert.equal(outcome.error?.code, 'SYSTEM_CONFIG_UNSAFE');
      assert.ok(!ran().includes(`ran-${id}`), `root ran the resolver of ${id}`);
    };

    void test('root-only links (and a link back up the tree) are followed as before', () => {
      assert.equal(step('s', 'validate')?.code, 0, step('s', 'validate')?.stdout);
      assert.deepEqual(
        stepJson<Validate>(step('s', 'validate')).apps.map((a) => [a.name, a.ok]),
        [['s', true]],
      );
      assert.deepEqual(ran(), ['ran-g', 'ran-s'], 'only the root-only resolvers ran');
    });

    // Each case: what is refused (the config: the whole run; a script: its app), the path named with
    // its owner or mode, the fix, and the doctor step that also names it.
    const refused: {
      id: Id;
      title: string;
      refuses: (id: Id, problem: RegExp, fix: string) => void;
      path: string;
      problem: string;
      fix: string;
      doctorStep?: number;
    }[] = [
      {
        id: 'a',
        title:
          "a root-owned link in apps/ to nobody's folder: refused, its resolver never runs, doctor names it",
        refuses: refusesConfig,
        path: `${AK}/nobody-a`,
        problem: `is owned by uid ${NOBODY}, not root \\(mode 755\\)`,
        fix: 'chown root:root',
        doctorStep: -3,
      },
      {
        id: 'b',
        title: 'a linked recipe file nobody owns is refused',
        refuses: refusesConfig,
        path: `${AK}/b-recipes/b.yml`,
        problem: `is owned by uid ${NOBODY}, not root \\(mode 644\\)`,
        fix: 'chown root:root',
      },
      {
        id: 'c',
        title: 'a linked recipe folder below a group-writable folder is refused',
        refuses: refusesConfig,
        path: `${AK}/c-parent`,
        problem: 'is writable by its group \\(mode 775\\)',
        fix: 'chmod go-w',
      },
      {
        id: 'd',
        title: 'an absolute script_path in a folder nobody owns: validate, update and doctor refuse it',
        refuses: refusesScript,
        path: `${AK}/d-bin`,
        problem: `is owned by uid ${NOBODY}, not root \\(mode 755\\)`,
        fix: 'chown root:root',
        doctorStep: -2,
      },
      {
        id: 'e',
        title: 'an absolute script_path two folders below a group-writable one is refused',
        refuses: refusesScript,
        path: `${AK}/e-parent`,
        problem: 'is writable by its group \\(mode 775\\)',
        fix: 'chmod go-w',
      },
      {
        id: 'f',
        title: 'an absolute script_path in a sticky folder anyone can write (like /tmp) is refused',
        refuses: refusesScript,
        path: `${AK}/f-tmp`,
        problem: 'is writable by everyone \\(mode 1777\\)',
        fix: 'chmod go-w',
      },
    ];
    for (const c of refused) {
      void test(c.title, () => {
        const problem = new RegExp(`${c.path} ${c.problem}`);
        c.refuses(c.id, problem, `${c.fix} ${c.path}`);
        if (c.doctorStep !== undefined) doctorFails(c.doctorStep, problem, `${c.fix} ${c.path}`);
      });
    }

    void test('a loop of links in apps/ is passed over, not followed forever nor a refusal', () => {
      assert.equal(step('g', 'validate')?.code, 0, step('g', 'validate')?.stdout);
      const validate = stepJson<Validate & { skipped: { path: string }[] }>(step('g', 'validate'));
      assert.deepEqual(
        validate.apps.map((a) => [a.name, a.ok]),
        [['g', true]],
      );
      assert.deepEqual(
        validate.skipped.map((e) => e.path),
        [`${cfg('g')}/apps/loop.yml`],
      );
      assert.ok(ran().includes('ran-g'), ran().join());
    });
  },
);
