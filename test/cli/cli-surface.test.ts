// The command line as people who use gh and npm expect it, through the built CLI: version flags,
// help with global flags and examples, JSON usage errors, and hints for a first run with nothing set up.
import assert from 'node:assert/strict';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pkg } from '../../scripts/bundle-options.mjs';
import { runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

interface UsageJson {
  command: string;
  error: { code: string; message: string; hint?: string };
}

const VERSION = (pkg as { version: string }).version;
let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

/** Subcommand names as the root --help lists them. */
async function commandNames(): Promise<string[]> {
  const help = await runCli(['--help'], { env: h.env });
  const section = help.stdout.split('Commands:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)[ \n]/gm)]
    .map((m) => m[1] ?? '')
    .filter((c) => c !== 'help');
}

void describe('version', () => {
  void test('-V, --version, version and a lone -v print the version and exit 0', async () => {
    for (const args of [['-V'], ['--version'], ['version'], ['-v'], ['--verbose']]) {
      const r = await runCli(args, { env: h.env });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, `${VERSION}\n`, args.join(' '));
      assert.equal(r.stderr, '', args.join(' '));
    }
    const json = await runCli<{ command: string; version: string }>(['--json', 'version'], { env: h.env });
    assert.deepEqual(json.json, { command: 'version', version: VERSION });
  });

  void test('-v with a command stays --verbose', async () => {
    const r = await runCli(['-v', 'validate'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /0 valid, 0 invalid/);
    assert.doesNotMatch(r.stdout, new RegExp(`^${VERSION.replace(/\./g, '\\.')}$`, 'm'));
  });
});

void describe('help', () => {
  void test('every subcommand’s --help shows the global flags and two or three examples', async () => {
    const names = await commandNames();
    assert.ok(names.length >= 14, names.join(' '));
    for (const name of names) {
      const r = await runCli([name, '--help'], { env: h.env });
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      const global = r.stdout.split('Global Options:\n')[1] ?? '';
      for (const flag of ['--json', '-q, --quiet', '--config-dir <dir>', '-v, --verbose', '--no-color'])
        assert.ok(global.includes(flag), `${name} --help lacks the global flag ${flag}`);
      const examples = (r.stdout.split('Examples:\n')[1] ?? '').match(/^ {2}\$ appimage-keeper /gm) ?? [];
      assert.ok(examples.length >= 2 && examples.length <= 3, `${name}: ${examples.length} examples`);
    }
  });

  void test('no flag shows "(default: false)"', async () => {
    for (const name of ['', ...(await commandNames())]) {
      const r = await runCli(name ? [name, '--help'] : ['--help'], { env: h.env });
      assert.doesNotMatch(r.stdout, /default: false/, name || 'appimage-keeper');
    }
  });

  void test('help COMMAND is the command’s help; no command is a usage error with the help', async () => {
    const r = await runCli(['help', 'update'], { env: h.env });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: appimage-keeper update /);
    const none = await runCli([], { env: h.env });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^Usage: appimage-keeper/);
  });
});

void describe('usage errors with --json', () => {
  void test('name the subcommand and put the suggestion in its own hint field', async () => {
    const r = await runCli<UsageJson>(['--json', 'update', '--forc'], { env: h.env });
    assert.equal(r.code, 2);
    assert.deepEqual(r.json, {
      command: 'update',
      error: { code: 'USAGE', message: "unknown option '--forc'", hint: 'did you mean --force?' },
    });
    const after = await runCli<UsageJson>(['update', '--json', '--dry-rn'], { env: h.env });
    assert.equal(after.json?.command, 'update');
    assert.equal(after.json?.error.hint, 'did you mean --dry-run?');
    const cmd = await runCli<UsageJson>(['--json', 'updat'], { env: h.env });
    assert.deepEqual(cmd.json, {
      command: 'appimage-keeper',
      error: { code: 'USAGE', message: "unknown command 'updat'", hint: 'did you mean update?' },
    });
    const missing = await runCli<UsageJson>(['--json', 'rollback'], { env: h.env });
    assert.equal(missing.json?.command, 'rollback');
    assert.match(missing.json?.error.message ?? '', /missing required argument 'app'/);
  });

  void test('a bare --json prints a JSON usage error, not "(outputHelp)"', async () => {
    const r = await runCli<UsageJson>(['--json'], { env: h.env });
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stdout, /outputHelp/);
    assert.deepEqual(r.json, {
      command: 'appimage-keeper',
      error: {
        code: 'USAGE',
        message: 'no command given',
        hint: 'run appimage-keeper --help for the commands',
      },
    });
    assert.equal(r.stderr, '');
  });

  void test('in human mode the suggestion stays on stderr under the error', async () => {
    const r = await runCli(['update', '--forc'], { env: h.env });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: unknown option '--forc'\n\(Did you mean --force\?\)/);
  });
});

void describe('first run hints', () => {
  void test('a --config-dir that does not exist is exit 2 naming it, for every command that reads it', async () => {
    const missing = join(h.root, 'no-such-dir');
    for (const cmd of ['update', 'check', 'list', 'validate', 'remove']) {
      const r = await runCli(['--config-dir', missing, cmd], { env: h.env });
      assert.equal(r.code, 2, `${cmd}: ${r.stdout}`);
      assert.match(r.stderr, new RegExp(`configuration directory ${missing} does not exist`), cmd);
      assert.match(
        r.stderr,
        /hint: check the path, or create it with: appimage-keeper --config-dir .* init --global/,
      );
      const j = await runCli<UsageJson>(['--json', '--config-dir', missing, cmd], { env: h.env });
      assert.equal(j.json?.command, cmd);
      assert.equal(j.json?.error.code, 'CONFIG_DIR_MISSING');
    }
    await assert.rejects(stat(missing), 'nothing created it');
    // init is how it gets created.
    const init = await runCli(['--config-dir', missing, 'init', '--global'], { env: h.env });
    assert.equal(init.code, 0, init.stderr);
    const ok = await runCli(['--config-dir', missing, 'update'], { env: h.env });
    assert.equal(ok.code, 0, ok.stderr);
  });

  void test('update and check with no recipes say where recipes are looked for and how to add one', async () => {
    const dir = join(h.root, 'empty-config');
    await mkdir(join(dir, 'apps'), { recursive: true });
    for (const cmd of ['update', 'check']) {
      const r = await runCli(['--config-dir', dir, cmd], { env: h.env });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        r.stdout,
        `no recipes in ${join(dir, 'apps')}; add one by name with: appimage-keeper add NAME --install ` +
          '(find names with: appimage-keeper search WORD), take over AppImages you have with: ' +
          'appimage-keeper adopt --scan DIR, or write one: appimage-keeper init --app NAME --strategy forge\n',
      );
      assert.doesNotMatch(r.stdout, /0 updated/);
      const j = await runCli<{ hint?: string }>(['--json', '--config-dir', dir, cmd], { env: h.env });
      assert.match(
        j.json?.hint ?? '',
        /^no recipes in .*add NAME --install.*search WORD.*adopt --scan.*init --app NAME/,
      );
    }
    const quiet = await runCli(['-q', '--config-dir', dir, 'update'], { env: h.env });
    assert.equal(quiet.stdout, '', 'a timer run stays quiet');
  });
});
