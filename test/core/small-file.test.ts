// The bounded reader behind config, recipes, resolver-script scans and unit files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readSmallFileSync } from '../../src/core/small-file.js';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ak-small-'));
});
after(() => rm(dir, { recursive: true, force: true }));

void test('whole files up to the bound; larger ones refused, or their head with `head`', async () => {
  const file = join(dir, 'ten');
  await writeFile(file, '0123456789');
  assert.deepEqual(readSmallFileSync(file, 10), { kind: 'text', text: '0123456789' });
  assert.deepEqual(readSmallFileSync(file, 9), { kind: 'too-large' });
  assert.deepEqual(readSmallFileSync(file, 4, { head: true }), { kind: 'text', text: '0123' });
  assert.deepEqual(readSmallFileSync(file, 64, { head: true }), { kind: 'text', text: '0123456789' });
  await writeFile(file, '');
  assert.deepEqual(readSmallFileSync(file, 10), { kind: 'text', text: '' });
});

void test('a directory or FIFO is not read; a missing file throws with its code', () => {
  assert.deepEqual(readSmallFileSync(dir, 10), { kind: 'not-regular' });
  const fifo = join(dir, 'fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  assert.deepEqual(readSmallFileSync(fifo, 10), { kind: 'not-regular' });
  assert.deepEqual(readSmallFileSync(fifo, 10, { head: true }), { kind: 'not-regular' });
  assert.throws(() => readSmallFileSync(join(dir, 'nope'), 10), { code: 'ENOENT' });
});
