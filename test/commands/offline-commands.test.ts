import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { CliRun } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

interface ErrorJson {
  code: string;
  message: string;
  hint?: string;
  issues?: { file: string; line: number; col: number; message: string }[];
}
interface ValidateJson {
  command: 'validate';
  ok: boolean;
  config: { file: string; exists: boolean };
  secrets: { file: string; exists: boolean };
  apps: { name: string; file: string; ok: boolean; strategy?: string; error?: ErrorJson }[];
  warnings: string[];
  error?: ErrorJson;
}
interface ListApp {
  name: string;
  recipe: string;
  valid: boolean;
  strategy: string | null;
  ignored: boolean;
  version: string | null;
  path: string | null;
  error: ErrorJson | null;
}
interface ListJson {
  command: 'list';
  apps: ListApp[];
  names?: string[];
  error?: ErrorJson;
}

const ESC = '\u001b[';

function recipe(name: string, extra: Record<string, unknown> = {}): string {
  return stringify({
    name,
    strategy: {
      strategy: 'direct',
      url: `https://example.com/${name}.AppImage`,
      check_method: 'last-modified',
    },
    ...extra,
  });
}

/** One JSON document and nothing else on stdout. */
function assertOneJsonDocument(r: CliRun): void {
  const text = r.stdout.trim();
  assert.ok(text.startsWith('{') && text.endsWith('}'), r.stdout);
  assert.equal(r.stdout.endsWith('\n'), true);
  assert.equal(r.stdout.trimEnd().split('\n').length, 1, 'one line of JSON');
  JSON.parse(text);
}

async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    out.push(join(e.parentPath, e.name).slice(dir.length));
  return out.sort();
}

void describe('validate and list', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
    await h.writeRecipe('alpha', recipe('alpha'));
    await h.writeRecipe('beta', recipe('beta', { ignore: true }), 'flat');
  });
  after(async () => {
    await h.cleanup();
  });

  void test('validate: all valid → exit 0 and the JSON shape', async () => {
    const r = await runInProcess<ValidateJson>(['--json', 'validate'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    assertOneJsonDocument(r);
    assert.deepEqual(r.json, {
      command: 'validate',
      ok: true,
      config: { file: join(h.configDir, 'config.yml'), exists: false },
      secrets: { file: join(h.configDir, 'secrets.yml'), exists: false },
      apps: [
        { name: 'alpha', file: join(h.appsDir, 'alpha', 'alpha.yml'), ok: true, strategy: 'direct' },
        { name: 'beta', file: join(h.appsDir, 'beta.yml'), ok: true, strategy: 'direct' },
      ],
      warnings: [],
      skipped: [],
    });
    const human = await runInProcess(['validate'], { env: h.env });
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^ok {2}alpha \(direct\)/m);
    assert.match(human.stdout, /2 valid, 0 invalid\n$/);
  });

  void test('list: JSON shape, human table, --names', async () => {
    const r = await runInProcess<ListJson>(['--json', 'list'], { env: h.env });
    assert.equal(r.code, 0, r.stderr);
    assertOneJsonDocument(r);
    assert.equal(r.json?.command, 'list');
    assert.deepEqual(
      r.json?.apps.map((a) => [a.name, a.valid, a.strategy, a.ignored, a.version, a.path, a.error]),
      [
        ['alpha', true, 'direct', false, null, null, null],
        ['beta', true, 'direct', true, null, null, null],
      ],
    );
    const keys = Object.keys(r.json?.apps[0] ?? {});
    for (const k of [
      'recipe',
      'held',
      'file_present',
      'size',
      'integration',
      'desktop_entry',
      'symlink',
      'last_check',
    ])
      assert.ok(keys.includes(k), `list JSON lacks ${k}`);

    const human = await runInProcess(['list'], { env: h.env });
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^NAME +STRATEGY +VERSION/);
    assert.match(human.stdout, /^beta +direct .* ignored/m);
    assert.match(human.stdout, /^alpha +direct .* not installed/m);

    const names = await runInProcess(['list', '--names'], { env: h.env });
    assert.equal(names.stdout, 'alpha\nbeta\n');
    const namesJson = await runInProcess<ListJson>(['--json', 'list', '--names'], { env: h.env });
    assert.deepEqual(namesJson.json, { command: 'list', names: ['alpha', 'beta'] });
  });

  void test('validate APP selects apps; an unknown app name is exit 2 with one JSON error document', async () => {
    const one = await runInProcess<ValidateJson>(['--json', 'validate', 'beta'], { env: h.env });
    assert.equal(one.code, 0);
    assert.deepEqual(
      one.json?.apps.map((a) => a.name),
      ['beta'],
    );
    const r = await runInProcess<ValidateJson>(['--json', 'validate', 'alpha', 'nope'], { env: h.env });
    assert.equal(r.code, 2);
    assertOneJsonDocument(r);
    assert.equal(r.json?.error?.code, 'UNKNOWN_APP');
    assert.match(r.json?.error?.message ?? '', /nope/);
    assert.match(r.json?.error?.hint ?? '', /known apps: alpha, beta/);
    const human = await runInProcess(['validate', 'nope'], { env: h.env });
    assert.equal(human.code, 2);
    assert.equal(human.stdout, '');
    assert.match(human.stderr, /^error: unknown app: nope/);
  });

  void test('a broken recipe: validate exits 1 and names file:line:col; list still lists it (exit 0)', async () => {
    const file = await h.writeRecipe('gamma', 'name: gamma\nstrategy:\n  strategy: direct\n  url: nope\n');
    try {
      const r = await runInProcess<ValidateJson>(['--json', 'validate'], { env: h.env });
      assert.equal(r.code, 1);
      assertOneJsonDocument(r);
      assert.equal(r.json?.ok, false);
      const gamma = r.json?.apps.find((a) => a.name === 'gamma');
      assert.equal(gamma?.ok, false);
      assert.equal(gamma?.error?.code, 'CONFIG_INVALID');
      assert.deepEqual(
        gamma?.error?.issues?.map((i) => [i.file, i.line, i.col]),
        [
          [file, 3, 3],
          [file, 4, 8],
        ],
      );
      assert.deepEqual(
        r.json?.apps.filter((a) => a.ok).map((a) => a.name),
        ['alpha', 'beta'],
      );
      const human = await runInProcess(['validate'], { env: h.env });
      assert.equal(human.code, 1);
      assert.ok(
        human.stdout.includes(`${file}:4:8: strategy.url: must be an http:// or https:// URL`),
        human.stdout,
      );
      assert.match(human.stdout, /2 valid, 1 invalid\n$/);
      // Validating only the good apps succeeds.
      assert.equal((await runInProcess(['validate', 'alpha'], { env: h.env })).code, 0);

      const list = await runInProcess<ListJson>(['--json', 'list'], { env: h.env });
      assert.equal(list.code, 0);
      const row = list.json?.apps.find((a) => a.name === 'gamma');
      assert.equal(row?.valid, false);
      assert.equal(row?.error?.code, 'CONFIG_INVALID');
      assert.match((await runInProcess(['list'], { env: h.env })).stdout, /^gamma .*invalid recipe/m);
    } finally {
      await rm(join(h.appsDir, 'gamma'), { recursive: true });
    }
  });

  void test('a broken config.yml: validate and list exit 2 with a positioned error', async () => {
    const file = await h.writeConfig('show_all: true\nstorage_dri: /x\n');
    try {
      for (const cmd of ['validate', 'list']) {
        const r = await runInProcess<ValidateJson>(['--json', cmd], { env: h.env });
        assert.equal(r.code, 2, cmd);
        assertOneJsonDocument(r);
        assert.equal(r.json?.error?.code, 'CONFIG_INVALID');
        assert.deepEqual(r.json?.error?.issues?.[0], {
          file,
          line: 2,
          col: 1,
          message: 'unknown key "storage_dri"',
          hint: 'did you mean "storage_dir"?',
        });
        const human = await runInProcess([cmd], { env: h.env });
        assert.equal(human.code, 2);
        assert.equal(human.stdout, '');
        assert.ok(human.stderr.includes(`${file}:2:1: unknown key "storage_dri"`), human.stderr);
      }
    } finally {
      await h.writeConfig('');
    }
  });

  void test('bad flags and unknown commands are exit 2', async () => {
    for (const args of [
      ['validate', '--bogus'],
      ['--bogus', 'list'],
      ['frobnicate'],
      ['list', 'extra', 'args'],
    ]) {
      const r = await runInProcess(args, { env: h.env });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.notEqual(r.stderr, '');
    }
  });

  void test('no command at all is a usage error (exit 2) with the help on stderr', async () => {
    const none = await runInProcess([], { env: h.env });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage: appimage-keeper/);
  });

  void test('--json with a bad flag still prints one JSON error document', async () => {
    const r = await runInProcess(['--json', 'validate', '--bogus'], { env: h.env });
    assert.equal(r.code, 2);
    assertOneJsonDocument(r);
  });

  void test('secrets.yml: listed by validate, permission warning on stderr only', async () => {
    const secrets = join(h.configDir, 'secrets.yml');
    await writeFile(secrets, 'hub_token: abc\n', { mode: 0o644 });
    await chmod(secrets, 0o644);
    try {
      const r = await runInProcess<ValidateJson>(['--json', 'validate'], { env: h.env });
      assert.equal(r.code, 0);
      assertOneJsonDocument(r);
      assert.deepEqual(r.json?.secrets, { file: secrets, exists: true });
      assert.equal(r.json?.warnings.length, 1);
      assert.match(r.stderr, /^warning: .*readable by group or others/m);
      assert.ok(!r.stdout.includes('abc'));
      await chmod(secrets, 0o600);
      const ok = await runInProcess<ValidateJson>(['--json', 'validate'], { env: h.env });
      assert.deepEqual(ok.json?.warnings, []);
      assert.equal(ok.stderr, '');
    } finally {
      await rm(secrets);
    }
  });

  void test('no colour codes when stdout and stderr are not TTYs, even without NO_COLOR', async () => {
    await h.writeRecipe('gamma', 'name: gamma\n');
    try {
      const env = { ...h.env, FORCE_COLOR: undefined, NO_COLOR: undefined, TERM: 'xterm-256color' };
      for (const args of [['validate'], ['list'], ['validate', 'nope']]) {
        const r = await runInProcess(args, { env });
        assert.ok(
          !r.stdout.includes(ESC) && !r.stderr.includes(ESC),
          `${args.join(' ')} printed colour codes`,
        );
      }
    } finally {
      await rm(join(h.appsDir, 'gamma'), { recursive: true });
    }
  });

  void test('read-only commands never create the state dir, a lock, or any file', async () => {
    // Another config directory (it must exist: a missing --config-dir is a usage error).
    await mkdir(join(h.root, 'other'), { recursive: true });
    const before = await listTree(h.root);
    const stateEnv = h.env;
    for (const args of [
      ['validate'],
      ['--json', 'validate'],
      ['list'],
      ['--json', 'list'],
      ['list', '--names'],
      ['schema'],
      ['schema', 'recipe'],
      ['completion', 'bash'],
      ['--config-dir', join(h.root, 'other'), 'list'],
    ]) {
      const r = await runInProcess(args, { env: stateEnv });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    assert.deepEqual(await listTree(h.root), before);
    await assert.rejects(stat(h.stateDir), { code: 'ENOENT' });
  });

  void test('list reads a corrupt state file without moving it, and warns on stderr', async () => {
    await mkdir(h.stateDir, { recursive: true });
    const stateFile = join(h.stateDir, 'state.json');
    await writeFile(stateFile, '{"schema":1,');
    try {
      const r = await runInProcess<ListJson>(['--json', 'list'], { env: h.env });
      assert.equal(r.code, 0);
      assertOneJsonDocument(r);
      assert.match(r.stderr, /state file .* is unreadable/);
      assert.equal(await readFile(stateFile, 'utf8'), '{"schema":1,');
      assert.deepEqual(await readdir(h.stateDir), ['state.json']);
    } finally {
      await rm(h.stateDir, { recursive: true });
    }
  });

  void test('list shows what state says is installed', async () => {
    await mkdir(h.stateDir, { recursive: true });
    const file = join(h.root, 'alpha.AppImage');
    await writeFile(file, Buffer.alloc(2048));
    const installed = {
      version: '1.0',
      identity: 'x',
      file,
      url: 'https://example.com/a.AppImage',
      size: 2048,
      sha256: '0'.repeat(64),
      installedAt: '2026-01-01T00:00:00Z',
    };
    const state = {
      schema: 1,
      apps: { alpha: { strategy: 'direct', installed, lastCheck: '2026-01-02T00:00:00Z' } },
      forgeKinds: {},
      rateLimits: {},
    };
    await writeFile(join(h.stateDir, 'state.json'), JSON.stringify(state));
    try {
      const r = await runInProcess<{
        apps: (ListApp & { file_present: boolean; size: number; last_check: string })[];
      }>(['--json', 'list'], { env: h.env });
      const alpha = r.json?.apps.find((a) => a.name === 'alpha');
      assert.equal(alpha?.version, '1.0');
      assert.equal(alpha?.path, file);
      assert.equal(alpha?.file_present, true);
      assert.equal(alpha?.size, 2048);
      assert.equal(alpha?.last_check, '2026-01-02T00:00:00Z');
      assert.match(
        (await runInProcess(['list'], { env: h.env })).stdout,
        /^alpha +direct +1\.0 .* installed/m,
      );
    } finally {
      await rm(h.stateDir, { recursive: true });
    }
  });
});

void describe('schema and completion', () => {
  let h: TmpHome;
  before(async () => {
    h = await makeTmpHome();
  });
  after(async () => {
    await h.cleanup();
  });

  void test('schema config|recipe print the JSON Schema, with or without --json; others are exit 2', async () => {
    for (const [args, title] of [
      [['schema'], 'appimage-keeper config.yml'],
      [['schema', 'config'], 'appimage-keeper config.yml'],
      [['--json', 'schema', 'recipe'], 'appimage-keeper recipe'],
      [['schema', 'recipe'], 'appimage-keeper recipe'],
    ] as const) {
      const r = await runInProcess([...args], { env: h.env });
      assert.equal(r.code, 0);
      const schema = JSON.parse(r.stdout) as { title: string; $schema: string; properties: object };
      assert.equal(schema.title, title);
      assert.ok('storage_dir' in schema.properties);
    }
    const bad = await runInProcess(['schema', 'state'], { env: h.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown schema "state"/);
  });

  void test('completion bash passes bash -n; zsh and fish scripts name the commands; others are exit 2', async () => {
    const bash = await runInProcess(['completion', 'bash'], { env: h.env });
    assert.equal(bash.code, 0);
    const check = spawnSync('bash', ['-n'], { input: bash.stdout, encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    assert.match(bash.stdout, /complete -F _appimage_keeper appimage-keeper/);
    assert.match(bash.stdout, /list --names/);
    assert.match(
      bash.stdout,
      /self-update\)\n(.*\n)*? {8}_ak_words="--repository --force --insecure --rollback --help"/,
    );

    const zsh = await runInProcess(['completion', 'zsh'], { env: h.env });
    assert.equal(zsh.code, 0);
    assert.match(zsh.stdout, /^#compdef appimage-keeper/);
    const zshCheck = spawnSync('zsh', ['-n'], { input: zsh.stdout, encoding: 'utf8' });
    if (!zshCheck.error) assert.equal(zshCheck.status, 0, zshCheck.stderr);

    const fish = await runInProcess(['completion', 'fish'], { env: h.env });
    assert.equal(fish.code, 0);
    assert.match(fish.stdout, /complete -c appimage-keeper .*-a "init validate list/);

    const json = await runInProcess<{ command: string; shell: string; script: string }>(
      ['--json', 'completion', 'fish'],
      {
        env: h.env,
      },
    );
    assert.equal(json.json?.shell, 'fish');
    assert.equal(json.json?.script.trimEnd(), fish.stdout.trimEnd());

    const bad = await runInProcess(['completion', 'tcsh'], { env: h.env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /'tcsh' is invalid .*Allowed choices are bash, zsh, fish/);
  });

  void test('the completion command list names every command the CLI has', async () => {
    const help = await runInProcess(['--help'], { env: h.env });
    const commands = [...help.stdout.matchAll(/^ {2}([a-z]+) /gm)]
      .map((m) => m[1])
      .filter((c) => c !== 'help');
    const bash = (await runInProcess(['completion', 'bash'], { env: h.env })).stdout;
    for (const c of commands) assert.match(bash, new RegExp(`[\\s"]${c}[\\s"]`), `completion lacks ${c}`);
  });
});
