// A reader that stops early (`appimage-keeper --help | head -1`): the CLI must end quietly, with no
// EPIPE stack trace, whichever entry answers (the launcher's fast path or the full CLI).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { CLI_PATH, REPO_ROOT } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
  await h.writeRecipe('tool', 'url: https://example.invalid/tool.AppImage\n');
});
after(async () => {
  await h.cleanup();
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  firstChunk: string;
}

/**
 * Runs the built CLI with stdout on a pipe that is destroyed as soon as the first chunk arrives
 * (as `head -1` does), or before anything arrives when `closeAtOnce` is set.
 */
function runClosingEarly(args: string[], which: 'stdout' | 'stderr', closeAtOnce = false): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: h.env,
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const closing = which === 'stdout' ? child.stdout : child.stderr;
    const other = which === 'stdout' ? child.stderr : child.stdout;
    let stderr = '';
    let firstChunk = '';
    if (which === 'stdout') other.on('data', (b: Buffer) => (stderr += b.toString()));
    else other.resume();
    if (closeAtOnce) closing.destroy();
    else
      closing.once('data', (b: Buffer) => {
        firstChunk = b.toString();
        closing.destroy();
      });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`appimage-keeper ${args.join(' ')} did not end after its reader closed`));
    }, 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, firstChunk });
    });
  });
}

void describe('a reader that closes early', { concurrency: true }, () => {
  const commands: string[][] = [
    ['--help'],
    ['update', '--help'],
    ['list'],
    ['--json', 'list'],
    ['schema', 'recipe'],
    ['completion', 'bash'],
    ['completion', 'zsh', '--json'],
    ['--version'],
    ['version'],
  ];
  for (const args of commands) {
    void test(`${args.join(' ')}: no stack trace, exit 0`, async () => {
      const run = await runClosingEarly(args, 'stdout', true);
      assert.equal(run.stderr, '', 'nothing on stderr');
      assert.equal(run.signal, null);
      assert.equal(run.code, 0);
    });
  }

  void test('--help | head -1: the first line arrives, then a quiet exit 0', async () => {
    const run = await runClosingEarly(['--help'], 'stdout');
    assert.match(run.firstChunk, /^Usage: appimage-keeper/);
    assert.equal(run.stderr, '');
    assert.equal(run.code, 0);
  });

  void test('a failing command keeps its own exit code when its reader has gone', async () => {
    const run = await runClosingEarly(['--json', 'info', 'no-such-app'], 'stdout', true);
    assert.equal(run.stderr, '');
    assert.equal(run.code, 2);
  });

  void test('a command still writing when its reader leaves is cut short: exit 141, nothing printed', async () => {
    // A program that keeps writing lines, as a long run does, behind the entry points' handler.
    const code = [
      `import { endQuietlyWhenReaderCloses } from ${JSON.stringify(join(REPO_ROOT, 'src/entry/closed-output.ts'))};`,
      'endQuietlyWhenReaderCloses();',
      "setInterval(() => process.stdout.write('still working\\n'), 5);",
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [exit, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    clearTimeout(timer);
    assert.equal(signal, null, 'it ended by itself');
    assert.equal(stderr, '');
    assert.equal(exit, 141);
  });

  void test('a closed stderr ends quietly too', async () => {
    const run = await runClosingEarly(['no-such-command'], 'stderr', true);
    assert.equal(run.signal, null);
    assert.equal(run.code, 2);
  });
});
