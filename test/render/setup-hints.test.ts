// The command in CONFIG_DIR_MISSING's hint, read by a real shell, creates exactly the folder named
// with --config-dir, whatever its name holds.
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runInProcess } from '../helpers/run-in-process.js';
import { shellWords } from '../helpers/shell-words.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

void describe('setup hints', () => {
  const homes: TmpHome[] = [];
  after(() => Promise.all(homes.map((h) => h.cleanup())));

  void test('CONFIG_DIR_MISSING: the init command of the hint, pasted, creates that folder', async () => {
    const h = await makeTmpHome();
    homes.push(h);
    const dir = join(h.root, "my configs $(touch pwned) it's");
    const r = await runInProcess<{ error: { code: string; hint: string } }>(
      ['--json', '--config-dir', dir, 'list'],
      { env: h.env },
    );
    assert.equal(r.json?.error.code, 'CONFIG_DIR_MISSING', r.stdout + r.stderr);
    const line = /(appimage-keeper .*)$/.exec(r.json?.error.hint ?? '')?.[1];
    assert.ok(line, r.json?.error.hint);
    const [program, ...args] = shellWords(line, h.root);
    assert.equal(program, 'appimage-keeper');
    const init = await runInProcess(args, { env: h.env });
    assert.equal(init.code, 0, `${line}\n${init.stdout}${init.stderr}`);
    assert.ok((await stat(join(dir, 'config.yml'))).isFile());
    assert.ok(!(await readdir(h.root)).includes('pwned'), 'the hint ran part of the path');
  });
});
