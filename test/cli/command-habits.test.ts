// Words people bring from apt, AM and soar (install, uninstall, upgrade) get the command we have
// instead; `help` of an unknown topic is a usage error like the unknown command itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

interface UsageJson {
  command: string;
  error: { code: string; message: string; hint?: string };
}

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

void describe('habits from other tools', () => {
  void test('install NAME suggests add NAME --install, with exit 2 and nothing done', async () => {
    const r = await runCli(['install', 'joplin'], { env: h.env });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: unknown command 'install'\n\(Did you mean add joplin --install\?\)/);
    const j = await runCli<UsageJson>(['--json', 'install', 'joplin'], { env: h.env });
    assert.deepEqual(j.json, {
      command: 'appimage-keeper',
      error: {
        code: 'USAGE',
        message: "unknown command 'install'",
        hint: 'did you mean add joplin --install?',
      },
    });
  });

  void test('a bare install, uninstall and upgrade name our command', async () => {
    const cases: [string[], string][] = [
      [['install'], 'add NAME --install'],
      [['uninstall', 'joplin'], 'remove joplin'],
      [['upgrade'], 'update'],
      [['upgrade', 'joplin'], 'update joplin'],
    ];
    for (const [args, hint] of cases) {
      const r = await runCli<UsageJson>(['--json', ...args], { env: h.env });
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.json?.error.hint, `did you mean ${hint}?`, args.join(' '));
    }
  });

  void test('a hostile word is escaped in the suggestion', async () => {
    const r = await runCli(['install', 'x\u001b[2Jy'], { env: h.env });
    assert.equal(r.code, 2);
    assert.ok(!r.stderr.includes('\u001b'), r.stderr);
  });
});

void describe('help TOPIC', () => {
  void test('help of an unknown command is a usage error with a suggestion', async () => {
    const r = await runCli(['help', 'nosuch'], { env: h.env });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /unknown command 'nosuch'/);
    const near = await runCli<UsageJson>(['--json', 'help', 'updat'], { env: h.env });
    assert.equal(near.code, 2);
    assert.equal(near.json?.error.hint, 'did you mean update?');
    const ok = await runCli(['help', 'update'], { env: h.env });
    assert.equal(ok.code, 0);
    const bare = await runCli(['help'], { env: h.env });
    assert.equal(bare.code, 0);
    assert.match(bare.stdout, /^Usage: appimage-keeper/);
  });
});

void describe('the easy path first', () => {
  void test('the root --help examples start with search and add NAME, and end with init', async () => {
    const r = await runCli(['--help'], { env: h.env });
    const cmds = [
      ...(r.stdout.split('Examples:\n')[1] ?? '').matchAll(/^ {2}\$ appimage-keeper (\S+)/gm),
    ].map((m) => m[1]);
    assert.deepEqual(cmds.slice(0, 3), ['search', 'add', 'adopt']);
    assert.equal(cmds.at(-1), 'init');
  });

  void test('an empty list names add NAME, search and adopt --scan before init', async () => {
    const r = await runCli(['list'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    const order = ['add NAME --install', 'search WORD', 'adopt --scan', 'init --app'].map((s) =>
      r.stdout.indexOf(s),
    );
    assert.ok(
      order.every((i) => i >= 0),
      r.stdout,
    );
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      r.stdout,
    );
  });
});
