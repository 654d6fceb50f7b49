/**
 * Our own JSON files replaced by something hostile (issue 18 §2): a state file of nested brackets,
 * one of gigabytes (sparse), a FIFO in its place, and the same in place of the lock file. Each is
 * read with a byte cap and parsed within limits: state is moved aside as corrupt saying why, a lock
 * file is an unreadable (stale) owner; nothing is parsed whole and nothing waits on the FIFO.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KeeperEvent } from '../../src/core/events.js';
import { readIntent } from '../../src/state/intent.js';
import { MAX_STATE_FILE_BYTES } from '../../src/state/local-json.js';
import { acquireLock } from '../../src/state/lock.js';
import { StateStore } from '../../src/state/store.js';
import { runProgram } from '../helpers/run-program.js';

const NOW = new Date('2026-03-04T05:06:07.089Z');
const NESTED = `${'['.repeat(2 * 1024 * 1024)}${']'.repeat(2 * 1024 * 1024)}`;

void describe('hostile state and lock files', () => {
  let root: string;
  let n = 0;
  const freshDir = async (): Promise<string> => {
    const d = join(root, `s${++n}`);
    await mkdir(d);
    return d;
  };
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ak-hostile-state-'));
  });
  after(async () => rm(root, { recursive: true, force: true }));

  const cases: [string, (file: string) => Promise<void>, string][] = [
    ['4 MiB of nested arrays', (f) => writeFile(f, NESTED), 'nests deeper than 64 levels'],
    [
      'a sparse file of 4 GiB',
      async (f) => {
        await writeFile(f, '');
        await truncate(f, 4 * 1024 ** 3);
      },
      `larger than ${MAX_STATE_FILE_BYTES} bytes`,
    ],
    [
      'a FIFO',
      (f) => runProgram('mkfifo', [f], { timeoutMs: 10_000 }).then(() => undefined),
      'not a regular file',
    ],
  ];
  for (const [label, plant, reason] of cases) {
    void test(`state.json as ${label}: moved aside as corrupt (${reason})`, { timeout: 30_000 }, async () => {
      const dir = await freshDir();
      await plant(join(dir, 'state.json'));
      const events: KeeperEvent[] = [];
      const store = await StateStore.load(dir, NOW, (e) => events.push(e));
      assert.deepEqual(store.appNames(), []);
      const ev = events[0];
      assert.ok(ev?.type === 'warning' && ev.code === 'STATE_CORRUPT', JSON.stringify(events));
      assert.ok(ev.message.includes(`(${reason})`), ev.message);
    });

    void test(`an install intent as ${label} is no intent`, { timeout: 30_000 }, async () => {
      const dir = await freshDir();
      await mkdir(join(dir, 'pending'), { recursive: true });
      await plant(join(dir, 'pending', 'app.json'));
      assert.equal(readIntent(dir, 'app'), undefined);
    });

    void test(`the lock file as ${label}: an unreadable owner, replaced`, { timeout: 30_000 }, async () => {
      const dir = await freshDir();
      const file = join(dir, 'lock');
      await plant(file);
      const held = await acquireLock(file, 'update');
      assert.equal(
        (JSON.parse(await readFile(file, 'utf8')) as { pid: number }).pid,
        process.pid,
        'the lock is ours now',
      );
      await held.release();
    });
  }
});
