import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ExitCode, LockedError } from '../../src/core/errors.js';
import { acquireLock, bootId, type LockOwner } from '../../src/state/lock.js';
import { REPO_ROOT } from '../helpers/run-cli.js';

const HOLDER = join(REPO_ROOT, 'test', 'state', 'fixtures', 'lock-holder.ts');

/** Starts the lock-holder script through tsx; resolves with its first stdout line. */
function startHolder(mode: 'hold' | 'try', file: string): { child: ChildProcess; line: Promise<unknown> } {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, mode, file], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  const line = new Promise<unknown>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on('close', (code) => reject(new Error(`holder exited (${code}) before reporting: ${stderr}`)));
  });
  return { child, line };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  const pid = child.pid;
  await exitOf(child);
  assert.ok(pid);
  return pid;
}

async function writeOwner(file: string, owner: Partial<LockOwner>): Promise<void> {
  await writeFile(
    file,
    JSON.stringify({
      pid: 1,
      bootId: await bootId(),
      command: 'old',
      startedAt: '2020-01-01T00:00:00Z',
      ...owner,
    }),
  );
}

void describe('lock', () => {
  let dir: string;
  let n = 0;
  const lockFile = () => join(dir, `lock-${++n}`);
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  void test('acquire writes the owner, creates the directory; release removes it', async () => {
    const file = join(dir, 'nested', 'state', 'lock');
    const lock = await acquireLock(file, 'update');
    const owner = JSON.parse(await readFile(file, 'utf8')) as LockOwner;
    assert.equal(owner.pid, process.pid);
    assert.equal(owner.command, 'update');
    assert.equal(owner.bootId, await bootId());
    assert.deepEqual(owner, lock.owner);
    await lock.release();
    await assert.rejects(readFile(file), { code: 'ENOENT' });
    await lock.release();
  });

  void test('a second acquire in the same process is refused naming our pid', async () => {
    const file = lockFile();
    const lock = await acquireLock(file, 'update');
    await assert.rejects(acquireLock(file, 'check'), (err: unknown) => {
      assert.ok(err instanceof LockedError);
      assert.equal(err.exitCode, ExitCode.locked);
      assert.equal(err.details?.pid, process.pid);
      assert.match(err.message, new RegExp(`pid ${process.pid}\\b`));
      return true;
    });
    await lock.release();
    const again = await acquireLock(file, 'check');
    await again.release();
  });

  void test('a live holder in the same boot is refused (pid 1 is always alive)', async () => {
    const file = lockFile();
    await writeOwner(file, { pid: 1, command: 'update' });
    await assert.rejects(acquireLock(file, 'check'), (err: unknown) => {
      assert.ok(err instanceof LockedError);
      assert.equal(err.details?.pid, 1);
      assert.match(err.message, /pid 1,/);
      return true;
    });
    // Refusing must not disturb the holder's file.
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as LockOwner).pid, 1);
  });

  void test('a lock from a dead pid is stale and taken over', async () => {
    const file = lockFile();
    await writeOwner(file, { pid: await deadPid() });
    const lock = await acquireLock(file, 'update');
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as LockOwner).pid, process.pid);
    await lock.release();
  });

  void test('a lock from another boot is stale even when its pid is alive', async () => {
    const file = lockFile();
    await writeOwner(file, { pid: 1, bootId: 'another-boot' });
    const lock = await acquireLock(file, 'update');
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as LockOwner).bootId, await bootId());
    await lock.release();
  });

  void test('a lock naming our pid that we do not hold (pid reuse) is stale', async () => {
    const file = lockFile();
    await writeOwner(file, { pid: process.pid, startedAt: '2020-01-01T00:00:00Z' });
    const lock = await acquireLock(file, 'update');
    assert.equal(lock.owner.startedAt === '2020-01-01T00:00:00Z', false);
    await lock.release();
  });

  void test('an unreadable lock file is treated as stale: the file then names us', async () => {
    const file = lockFile();
    await writeFile(file, 'garbage');
    const lock = await acquireLock(file, 'update');
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as LockOwner;
    assert.deepEqual(onDisk, lock.owner);
    assert.equal(onDisk.pid, process.pid);
    assert.equal(onDisk.command, 'update');
    await lock.release();
  });

  void test('release removes only our own lock', async () => {
    const file = lockFile();
    const lock = await acquireLock(file, 'update');
    // Someone replaced the file (e.g. removed it by hand and another run took it).
    await writeOwner(file, { pid: 1, command: 'other' });
    await lock.release();
    assert.equal((JSON.parse(await readFile(file, 'utf8')) as LockOwner).command, 'other');

    const file2 = lockFile();
    const lock2 = await acquireLock(file2, 'update');
    await writeOwner(file2, { pid: 1, command: 'other' });
    lock2.releaseSync();
    assert.equal((JSON.parse(await readFile(file2, 'utf8')) as LockOwner).command, 'other');

    const file3 = lockFile();
    const lock3 = await acquireLock(file3, 'update');
    lock3.releaseSync();
    await assert.rejects(readFile(file3), { code: 'ENOENT' });
  });

  void test('a child process holding the lock: we get LockedError with its pid; when it dies, we take over', async () => {
    const file = lockFile();
    const holder = startHolder('hold', file);
    try {
      const held = (await holder.line) as { acquired: boolean; pid: number };
      assert.equal(held.acquired, true);
      await assert.rejects(acquireLock(file, 'update'), (err: unknown) => {
        assert.ok(err instanceof LockedError);
        assert.equal(err.details?.pid, held.pid);
        assert.match(err.message, /"test-hold"/);
        return true;
      });
      // Killed without a chance to release: the file stays, with a dead pid in it.
      holder.child.kill('SIGKILL');
      await exitOf(holder.child);
      assert.equal((JSON.parse(await readFile(file, 'utf8')) as LockOwner).pid, held.pid);
      const lock = await acquireLock(file, 'update');
      assert.equal(lock.owner.pid, process.pid);
      await lock.release();
    } finally {
      holder.child.kill('SIGKILL');
    }
  });

  void test('two other processes contend: the second gets exit 3 naming the first; after release it succeeds', async () => {
    const sub = join(dir, 'contend');
    await mkdir(sub);
    const file = join(sub, 'lock');
    const first = startHolder('hold', file);
    try {
      const held = (await first.line) as { pid: number };
      const second = startHolder('try', file);
      const refused = (await second.line) as { acquired: boolean; code: string; details: { pid: number } };
      assert.equal(await exitOf(second.child), 3);
      assert.equal(refused.acquired, false);
      assert.equal(refused.code, 'LOCKED');
      assert.equal(refused.details.pid, held.pid);

      first.child.stdin?.end();
      assert.equal(await exitOf(first.child), 0);
      await assert.rejects(readFile(file), { code: 'ENOENT' });

      const third = startHolder('try', file);
      assert.deepEqual(((await third.line) as { acquired: boolean }).acquired, true);
      assert.equal(await exitOf(third.child), 0);
    } finally {
      first.child.kill('SIGKILL');
    }
  });
});
