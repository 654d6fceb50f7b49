// A YAML alias bomb (billion laughs) is refused before it expands, with the same positioned
// config error naming the file whatever it is: the lock file (issue 27 item 7), config.yml or a
// recipe, since all three are read by one loader (src/config/yaml-file.ts).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readLockFile } from '../../src/config/lock-file.js';
import { ConfigError, ExitCode } from '../../src/core/errors.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

/** A billion-laughs document: nine levels of ten aliases each. */
function billionLaughs(): string {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 0; i < 8; i++) {
    const [prev, name] = [String.fromCharCode(97 + i), String.fromCharCode(98 + i)];
    lines.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${prev}`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

const RECIPE = 'name: alpha\nstrategy:\n  strategy: forge\n  repository: https://github.com/o/alpha\n';
const BOMB_MESSAGE = /:1:1: aliases expand too far/;

let h: TmpHome;
before(async () => {
  h = await makeTmpHome();
});
after(async () => {
  await h.cleanup();
});

void test('a lock file bomb is the config error naming the lock file, exit 2', async () => {
  const file = join(h.root, 'laughs.lock');
  await writeFile(file, billionLaughs());
  await assert.rejects(readLockFile(file), (err: unknown) => {
    assert.ok(err instanceof ConfigError, String(err));
    assert.equal(err.exitCode, ExitCode.usage);
    assert.equal(err.issues[0]?.file, file);
    assert.match(err.message, BOMB_MESSAGE);
    return true;
  });
});

void test('update --locked with a lock bomb exits 2 naming the file, not INTERNAL', async () => {
  await h.writeRecipe('alpha', RECIPE);
  await writeFile(join(h.configDir, 'appimage-keeper.lock'), billionLaughs());
  const r = await runInProcess(['update', '--locked'], { env: h.env });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /appimage-keeper\.lock:1:1: aliases expand too far/);
  assert.doesNotMatch(r.stderr, /INTERNAL|Excessive alias count/);
});

void test('the same bomb as config.yml or as a recipe gets the same error', async () => {
  await h.writeConfig(billionLaughs());
  const config = await runInProcess(['validate'], { env: h.env });
  assert.equal(config.code, 2, config.stderr);
  assert.match(config.stderr, /config\.yml:1:1: aliases expand too far/);
  await h.writeConfig('');
  await h.writeRecipe('laughs', billionLaughs());
  const recipe = await runInProcess(['validate'], { env: h.env });
  assert.equal(recipe.code, 1, recipe.stderr);
  assert.match(recipe.stdout + recipe.stderr, /laughs\.ya?ml:1:1: aliases expand too far/);
});
