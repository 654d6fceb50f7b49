// Root without --system is told once that its apps are root's alone; --json stdout stays one document.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

const root = process.geteuid?.() === 0;

void describe('root without --system', { skip: root ? false : 'needs root' }, () => {
  const homes: TmpHome[] = [];
  after(() => Promise.all(homes.map((h) => h.cleanup())));

  void test('the first installing command warns once on stderr and names --system', async () => {
    const h = await makeTmpHome();
    homes.push(h);
    const list = await runCli(['list'], { env: h.env });
    assert.doesNotMatch(list.stderr, /--system/, 'a read-only command does not use up the notice');
    const first = await runCli<{ command: string }>(['--json', 'init', '--global'], { env: h.env });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json?.command, 'init');
    assert.match(
      first.stderr,
      /^warning: running as root without --system: .*visible to root only.*--system/m,
    );
    const second = await runCli(['init', '--global', '--force'], { env: h.env });
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /--system/);
  });

  void test('--quiet keeps the notice for a run that shows warnings', async () => {
    const h = await makeTmpHome();
    homes.push(h);
    const quiet = await runCli(['-q', 'init', '--global'], { env: h.env });
    assert.equal(quiet.stderr, '');
    const loud = await runCli(['init', '--global', '--force'], { env: h.env });
    assert.match(loud.stderr, /running as root without --system/);
  });

  void test('--system (here with a --config-dir) gives no notice and writes the system defaults', async () => {
    const h = await makeTmpHome();
    homes.push(h);
    const run = await runCli(['--system', '--config-dir', h.configDir, '--json', 'init', '--global'], {
      env: h.env,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /running as root without --system/);
    const text = await readFile(join(h.configDir, 'config.yml'), 'utf8');
    assert.match(text, /^storage_dir: \/opt\/appimages$/m);
  });
});
