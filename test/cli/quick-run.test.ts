/**
 * The quick path (src/cli/quick-run.ts): `list` and `validate` without commander, as the npm
 * launcher runs them. Whatever command line it takes, it answers exactly as the full CLI does
 * (exit code, stdout, stderr); anything else it hands back, untouched, to the full CLI.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { QUICK_COMMANDS } from '../../src/cli/quick-run.js';
import { QUICK_COMMAND_NAMES, mayRunQuick } from '../../src/cli/quick-names.js';
import { quickInvocation } from '../../src/cli/quick-parse.js';
import { GLOBAL_FLAGS } from '../../src/cli/global-flags.js';
import { COMMANDS } from '../../src/commands/index.js';
import { directRecipe } from '../config/workspace-fixture.js';
import { runInProcess, runQuickInProcess } from '../helpers/run-in-process.js';
import { installedRecord, writeStateFile } from '../helpers/state-file.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

void test('the launcher and the quick bundle name the same commands, each one the registry knows', () => {
  assert.deepEqual(
    QUICK_COMMANDS.map((c) => c.name),
    QUICK_COMMAND_NAMES,
  );
  for (const spec of QUICK_COMMANDS) assert.ok(COMMANDS.includes(spec), spec.name);
  assert.equal(mayRunQuick(['--json', 'list']), true);
  assert.equal(mayRunQuick(['info', 'x']), false);
});

void describe('reading the command line', () => {
  const read = (argv: string[]) => quickInvocation(argv, QUICK_COMMANDS, GLOBAL_FLAGS);

  void test('reads global flags before and after the command, values inline or apart, as commander does', () => {
    const q = read(['--json', '--config-dir', '/c', 'list', '--wide', '-q', '--no-color']);
    assert.equal(q?.spec.name, 'list');
    assert.deepEqual(q?.flags, { wide: true });
    assert.deepEqual(q?.args, []);
    assert.deepEqual(q?.globals, { color: false, json: true, configDir: '/c', quiet: true });
    const v = read(['validate', 'a', '--config-dir=/d', 'b', '-v']);
    assert.deepEqual(v?.args, [['a', 'b']]);
    assert.deepEqual(v?.globals, { color: true, configDir: '/d', verbose: true });
    assert.deepEqual(read(['validate'])?.args, [[]]);
  });

  void test('hands everything else to the full CLI', () => {
    for (const argv of [
      [],
      ['list', '--help'],
      ['list', '-h'],
      ['help', 'list'],
      ['list', '--bogus'],
      ['list', 'extra'],
      ['-qv', 'list'],
      ['list', '--'],
      ['validate', '--', 'x'],
      ['list', '--config-dir'],
      ['list', '--config-dir', '--json'],
      ['list', '--config-dir='],
      ['list', '--wide=1'],
      ['list', '-V'],
      ['info', 'list'],
      ['--version'],
      ['completion', 'bash'],
      ['update', 'list'],
    ])
      assert.equal(read(argv), undefined, argv.join(' '));
  });
});

void describe('the same answers as the full CLI', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
    for (const name of ['alpha', 'beta']) await h.writeRecipe(name, directRecipe(name));
    await h.writeRecipe('broken', 'name: broken\nstrategy:\n  strategy: forge\n  repository: not-a-url\n');
    // A recipe outside the plain YAML path (a comment and a flow list), and one that is not YAML.
    await h.writeRecipe(
      'gamma',
      '# mine\nname: gamma\nstrategy: {strategy: direct, url: "https://example.org/g.AppImage", check_method: etag}\n',
    );
    await h.writeRecipe('mangled', 'name: [unclosed\n');
    // Installed state for alpha, so list reads state and looks at the disk.
    const file = join(h.root, 'alpha.AppImage');
    await writeFile(file, 'x');
    await writeStateFile(h.stateDir, { alpha: { strategy: 'direct', installed: installedRecord(file) } });
  });
  after(async () => h.cleanup());

  const lines = (): string[][] => [
    ['list'],
    ['list', '--wide'],
    ['list', '--names'],
    ['--json', 'list'],
    ['list', '--json', '--no-color'],
    ['validate'],
    ['validate', 'alpha', 'beta'],
    ['validate', 'broken', '--json'],
    ['validate', 'nosuch'],
    ['-q', 'validate', 'mangled'],
    ['-v', 'list'],
    ['--config-dir', h.configDir, 'list'],
    ['--config-dir', join(h.root, 'nowhere'), 'list'],
    ['--config-dir', join(h.root, 'nowhere'), '--json', 'validate'],
  ];

  void test('exit code, stdout and stderr are the full CLI’s for every command line it takes', async () => {
    for (const argv of lines()) {
      const quick = await runQuickInProcess(argv, { env: h.env });
      assert.ok(quick, `${argv.join(' ')}: not taken by the quick path`);
      const full = await runInProcess(argv, { env: h.env });
      const label = argv.join(' ');
      assert.equal(quick.code, full.code, label);
      assert.equal(quick.stdout, full.stdout, label);
      assert.equal(quick.stderr, full.stderr, label);
    }
  });

  void test('the answers are the real ones, not two matching failures', async () => {
    const list = await runQuickInProcess(['list'], { env: h.env });
    assert.equal(list?.code, 0, list?.stderr);
    assert.match(list?.stdout ?? '', /^alpha +direct +1\.2 /m);
    const validate = await runQuickInProcess(['validate'], { env: h.env });
    assert.equal(validate?.code, 1);
    assert.match(validate?.stdout ?? '', /^bad broken: /m);
    assert.match(validate?.stdout ?? '', /^ok {2}gamma \(direct\)/m);
    assert.match(validate?.stdout ?? '', /3 valid, 2 invalid$/m);
  });
});
