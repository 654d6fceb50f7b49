/**
 * `info APP` and `edit APP` end to end: the built CLI against the sim for info (an installed app
 * named "My App", a rate-limit window), and the CLI in-process for edit with a fake editor script
 * (so a terminal's stdin can be simulated for the reopen question).
 */
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { runCli as runCliInProcess } from '../../../src/main.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { sha256 } from '../../helpers/sha256.js';
import { makeSimWorld } from '../../helpers/sim-world.js';
import { useSim } from '../../helpers/sim-suite.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';

interface InfoJson {
  command: 'info';
  app: {
    name: string;
    recipe: { file: string; valid: boolean; error: { code: string } | null } | null;
    settings: { key: string; value: unknown; source: string }[];
    state: {
      installed?: { version: string; sha256: string; file: string };
      integration?: { desktopFile: string };
      symlink?: string;
      rateLimit?: unknown;
    } | null;
    last_check: string | null;
    last_error: { code: string } | null;
    rate_limits: { key: string; until: string; message: string; host?: string }[];
  };
}

void describe('info APP', () => {
  const sim = useSim('requests-and-faults');
  after(() => disposeFixtureAppImages());

  void test('shows the recipe, each setting with its source, the whole state and an open rate-limit window', async () => {
    const w = await makeSimWorld(sim, { configLines: ['create_symlinks: false', 'notify: true'] });
    try {
      const recipe = await w.home.writeRecipe(
        'myapp',
        [
          'name: My App',
          'create_symlinks: true',
          'strategy:',
          '  strategy: forge',
          `  repository: ${sim.url}/e2e/myapp`,
          '  asset_match: "myapp-*"',
          '',
        ].join('\n'),
      );
      const body = await fixtureAppImage('myapp', '1.0');
      publishHubRelease(sim, 'myapp', '1.0', body);

      const before = await w.run<InfoJson>(['info', 'My App', '--json']);
      assert.equal(before.code, 0, before.stderr);
      assert.equal(before.json?.app.state, null);
      const source = (key: string) => before.json?.app.settings.find((s) => s.key === key)?.source;
      assert.equal(source('create_symlinks'), 'recipe');
      assert.equal(source('notify'), 'config.yml');
      assert.equal(source('keep_previous'), 'default');
      assert.equal(before.json?.app.recipe?.file, recipe);

      const u = await w.run(['update', '--json']);
      assert.equal(u.code, 0, u.stderr);
      const info = await w.run<InfoJson>(['info', 'My App', '--json']);
      const state = info.json?.app.state;
      assert.equal(state?.installed?.version, '1.0');
      assert.equal(state?.installed?.sha256, sha256(body));
      // The name's file-name form: "My App" → My_App.
      assert.equal(state?.installed?.file, join(w.storageDir, 'My_App.AppImage'));
      assert.equal(state?.symlink, join(w.symlinkDir, 'My_App'));
      assert.ok(state?.integration?.desktopFile.endsWith('.desktop'));
      assert.ok(info.json?.app.last_check);

      // The hub answers 403 with an exhausted budget: the window shows up.
      sim.fault('/repos/e2e/myapp/releases/latest', {
        rateLimit: { kind: '403-remaining', resetInSeconds: 1800 },
      });
      await w.run(['check', '--json']);
      const limited = await w.run<InfoJson>(['info', 'My App', '--json']);
      const windows = limited.json?.app.rate_limits ?? [];
      assert.deepEqual(
        windows.map((x) => [x.key, x.host]),
        [['app:My App', new URL(sim.url).host]],
        JSON.stringify(limited.json?.app),
      );
      // Plain `info` is a summary of about ten lines; -v (or --json) is the full record.
      const short = await w.run(['info', 'My App']);
      assert.equal(short.code, 0, short.stderr);
      const rows = short.stdout.trimEnd().split('\n');
      assert.ok(rows.length <= 12, short.stdout);
      assert.deepEqual(
        rows.slice(1, 10).map((r) => /^ {2}(\S+(?: \S+)?) {2,}/.exec(r)?.[1]),
        [
          'source',
          'installed',
          'latest',
          'file',
          'desktop entry',
          'last check',
          'last error',
          'hold',
          'recipe',
        ],
        short.stdout,
      );
      assert.match(short.stdout, new RegExp(`^ {2}source +forge ${sim.url}/e2e/myapp \\(myapp-\\*\\)$`, 'm'));
      assert.match(short.stdout, /^ {2}installed +1\.0 /m);
      assert.match(short.stdout, /^ {2}latest +1\.0/m);
      assert.ok(short.stdout.includes(join(w.storageDir, 'My_App.AppImage')), short.stdout);
      assert.match(short.stdout, /^ {2}desktop entry +\S+\.desktop$/m);
      assert.match(short.stdout, /^ {2}hold +no$/m);
      assert.match(short.stdout, /-v info/);
      assert.doesNotMatch(short.stdout, /create_symlinks/);
      const human = await w.run(['-v', 'info', 'My App']);
      assert.equal(human.code, 0);
      assert.match(human.stdout, /create_symlinks +true +recipe/);
      assert.match(human.stdout, /installed\.version +1\.0/);
      assert.match(human.stdout, /rate limits\n {2}app:My App +until [^\n]+/);
      // info takes no lock: it answers while a live process (this one) holds it, where update exits 3.
      const { bootId } = await import('../../../src/state/lock.js');
      await writeFile(
        join(w.home.stateDir, 'lock'),
        JSON.stringify({
          pid: process.pid,
          bootId: await bootId(),
          command: 'update',
          startedAt: new Date().toISOString(),
        }),
      );
      assert.equal((await w.run(['update'])).code, 3);
      assert.equal((await w.run(['info', 'My App'])).code, 0);
    } finally {
      await w.home.cleanup();
    }
  });

  void test('a newer release that failed to install: info shows it as latest, list as failing', async () => {
    const w = await makeSimWorld(sim);
    try {
      await w.writeForgeRecipe('failing');
      publishHubRelease(sim, 'failing', '1.0', await fixtureAppImage('failing', '1.0'));
      assert.equal((await w.run(['update'])).code, 0);
      // 2.0 publishes a digest its bytes do not have: the update fails, 1.0 stays installed.
      publishHubRelease(sim, 'failing', '2.0', await fixtureAppImage('failing', '2.0'), {
        digest: `sha256:${'0'.repeat(64)}`,
      });
      const u = await w.run(['update', '--json']);
      assert.equal(u.code, 1, u.stdout);
      const info = await w.run<InfoJson & { app: { state: { latest?: { version: string } } } }>([
        'info',
        'failing',
        '--json',
      ]);
      assert.equal(info.json?.app.state?.installed?.version, '1.0');
      assert.equal(info.json?.app.state?.latest?.version, '2.0', JSON.stringify(info.json?.app.state));
      const short = await w.run(['info', 'failing']);
      assert.match(short.stdout, /^ {2}latest +2\.0 /m);
      const list = await w.run<{
        apps: { name: string; status: string; last_error: { code: string } | null }[];
      }>(['list', '--json']);
      const row = list.json?.apps.find((a) => a.name === 'failing');
      assert.equal(row?.last_error?.code, 'VERIFY_DIGEST', JSON.stringify(row));
      const plain = await w.run(['list']);
      assert.match(plain.stdout, /^failing .* last check failed /m, plain.stdout);
    } finally {
      await w.home.cleanup();
    }
  });

  void test('an unknown app is a usage error listing the known ones', async () => {
    const w = await makeSimWorld(sim);
    try {
      await w.writeForgeRecipe('known');
      const r = await w.run(['info', 'nope']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /unknown app: nope\n {2}hint: known apps: known/);
    } finally {
      await w.home.cleanup();
    }
  });
});

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const GOOD =
  'name: tool\nstrategy:\n  strategy: direct\n  url: https://example.com/t.AppImage\n  check_method: etag\n';

// A fake editor: the Nth run copies the Nth prepared text into the file it is given.
async function fakeEditor(h: TmpHome, texts: string[]): Promise<string> {
  for (const [i, t] of texts.entries()) await writeFile(join(h.root, `edit-${i + 1}.yml`), t);
  const script = join(h.root, 'editor.sh');
  await writeFile(
    script,
    [
      '#!/bin/bash',
      `n=$(( $(/bin/cat ${h.root}/count 2>/dev/null || echo 0) + 1 ))`,
      `echo $n > ${h.root}/count`,
      `/bin/cp ${h.root}/edit-$n.yml "$1"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return script;
}

// A folder holding copies of the given programs under the given names, for a PATH of its own.
async function programDir(h: TmpHome, name: string, programs: Record<string, string>): Promise<string> {
  const dir = join(h.root, name);
  await mkdir(dir, { recursive: true });
  for (const [as, from] of Object.entries(programs)) await copyFile(from, join(dir, as));
  return dir;
}

async function edit(h: TmpHome, env: NodeJS.ProcessEnv, stdin?: NodeJS.ReadableStream) {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await runCliInProcess({ argv: ['edit', 'tool', '--json'], env, stdout, stderr, stdin });
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    json: JSON.parse(stdout.text) as Record<string, unknown>,
  };
}

void describe('edit APP', () => {
  void test('a valid save is reported ok; VISUAL wins over EDITOR', async () => {
    const h = await makeTmpHome();
    try {
      const file = await h.writeRecipe('tool', GOOD);
      const editor = await fakeEditor(h, [GOOD.replace('etag', 'last-modified')]);
      const r = await edit(h, { ...h.env, VISUAL: editor, EDITOR: '/bin/false' });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([r.json.valid, r.json.rounds, r.json.file], [true, 1, file]);
      assert.match(await readFile(file, 'utf8'), /check_method: last-modified/);
    } finally {
      await h.cleanup();
    }
  });

  void test('an invalid save without a terminal is reported with its line (exit 1), no question asked', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeRecipe('tool', GOOD);
      const editor = await fakeEditor(h, [GOOD.replace('etag', 'sometimes')]);
      const r = await edit(h, { ...h.env, EDITOR: editor });
      assert.equal(r.code, 1);
      assert.equal(r.json.valid, false);
      assert.match(JSON.stringify(r.json.error), /tool\.yml:5:17: strategy\.check_method/);
      assert.doesNotMatch(r.stderr, /reopen/);
    } finally {
      await h.cleanup();
    }
  });

  void test('on a terminal an invalid save offers to reopen; the second save is valid', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeRecipe('tool', GOOD);
      const editor = await fakeEditor(h, [GOOD.replace('etag', 'sometimes'), GOOD]);
      const stdin = Object.assign(new PassThrough(), { isTTY: true });
      stdin.end('y\n');
      const r = await edit(h, { ...h.env, EDITOR: editor }, stdin);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json.rounds, 2);
      assert.match(r.stderr, /bad tool: .*check_method[\s\S]*reopen the editor to fix it\? \[Y\/n\]/);
    } finally {
      await h.cleanup();
    }
  });

  void test('answering n discards the invalid edit, as crontab -e does: the recipe is as before', async () => {
    const h = await makeTmpHome();
    try {
      const file = await h.writeRecipe('tool', GOOD);
      const editor = await fakeEditor(h, [GOOD.replace('etag', 'sometimes')]);
      const stdin = Object.assign(new PassThrough(), { isTTY: true });
      stdin.end('n\n');
      const r = await edit(h, { ...h.env, EDITOR: editor }, stdin);
      assert.equal(r.code, 1);
      assert.deepEqual([r.json.valid, r.json.restored], [false, true]);
      assert.equal(await readFile(file, 'utf8'), GOOD, 'the previous recipe is back');
      assert.match(r.stderr, /discarded/);
      const valid = await runCliInProcess({
        argv: ['validate'],
        env: h.env,
        stdout: new Sink(),
        stderr: new Sink(),
      });
      assert.equal(valid, 0);
    } finally {
      await h.cleanup();
    }
  });

  void test('no editor set and neither editor nor vi on PATH is a usage error with a hint', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeRecipe('tool', GOOD);
      const r = await edit(h, { ...h.env, PATH: await programDir(h, 'bin-none', {}) });
      assert.equal(r.code, 2);
      assert.match(JSON.stringify(r.json), /EDITOR_NOT_SET/);
      assert.match(JSON.stringify(r.json), /editor.*vi/);
    } finally {
      await h.cleanup();
    }
  });

  // git's order when nothing is configured: the system's `editor` (Debian's alternative), then vi.
  for (const [found, programs] of [
    ['editor', ['editor', 'vi']],
    ['vi', ['vi']],
  ] as const) {
    void test(`with VISUAL and EDITOR unset, ${found} on PATH is opened (as git does)`, async () => {
      const h = await makeTmpHome();
      try {
        const file = await h.writeRecipe('tool', GOOD);
        const script = await fakeEditor(h, [GOOD.replace('etag', 'last-modified')]);
        const others = Object.fromEntries(programs.filter((p) => p !== found).map((p) => [p, '/bin/false']));
        const path = await programDir(h, 'bin with space', { [found]: script, ...others });
        const r = await edit(h, { ...h.env, PATH: path, VISUAL: '', EDITOR: ' ', TERM: 'xterm' });
        assert.equal(r.code, 0, r.stderr);
        assert.match(await readFile(file, 'utf8'), /check_method: last-modified/);
      } finally {
        await h.cleanup();
      }
    });
  }

  void test('a dumb terminal with no editor set does not fall back to vi (git refuses too)', async () => {
    const h = await makeTmpHome();
    try {
      await h.writeRecipe('tool', GOOD);
      const path = await programDir(h, 'bin-vi', { vi: '/bin/true' });
      const r = await edit(h, { ...h.env, PATH: path, TERM: 'dumb' });
      assert.equal(r.code, 2);
      assert.match(JSON.stringify(r.json), /EDITOR_NOT_SET/);
    } finally {
      await h.cleanup();
    }
  });
});
