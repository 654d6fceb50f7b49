/**
 * `list` and `validate` print more than a pipe holds to a reader slower than the command, whole
 * and with their exit code (ending the process as soon as the command was done once cut such
 * output at 64 KB: docs/decisions.md, "Start-up").
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, test } from 'node:test';
import { CLI_PATH } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

const APPS = 1500;
let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
  for (let i = 0; i < APPS; i++) {
    const name = `app${String(i).padStart(4, '0')}`;
    await h.writeRecipe(
      name,
      `name: ${name}\nstrategy:\n  strategy: forge\n  repository: https://github.com/example/${name}\n`,
      'flat',
    );
  }
});
after(async () => h.cleanup());

for (const command of ['list', 'validate']) {
  void test(`${command}: more output than a pipe holds reaches a slow reader whole, with the exit code`, async () => {
    const args = command === 'list' ? ['list', '--wide'] : ['validate'];
    // The reader sleeps before reading anything: the command fills the pipe and has to wait on it.
    const script = '"$@" | { sleep 0.5; cat; }; exit "${PIPESTATUS[0]}"';
    const child = spawn('bash', ['-c', script, 'bash', process.execPath, CLI_PATH, ...args], {
      env: { ...h.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    const [code] = (await once(child, 'close')) as [number | null];
    const text = Buffer.concat(chunks).toString('utf8');
    assert.equal(code, 0);
    assert.ok(text.length > 64 * 1024, `only ${text.length} bytes`);
    const last = command === 'list' ? /^app1499 /m : /^1500 valid, 0 invalid$/m;
    assert.match(text, last);
    assert.equal(text.split('\n').filter((l) => /\bapp\d{4}\b/.test(l)).length, APPS);
  });
}
