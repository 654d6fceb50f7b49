import { readFileSync, rmSync } from 'node:fs';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { LockedError } from '../core/errors.js';

/** Who holds the lock. */
export interface LockOwner {
  pid: number;
  bootId: string;
  command: string;
  startedAt: string;
}

/** A held lock; `release` is idempotent. */
export interface HeldLock {
  owner: LockOwner;
  release(): Promise<void>;
  /** Synchronous release for process-exit handlers. */
  releaseSync(): void;
}

let cachedBootId: string | undefined;

// Lock files this process holds right now. A lock file naming our own pid that is not in here was
// left by an earlier process that had the same pid (pid reuse, common in containers): stale.
const heldHere = new Set<string>();

/** The kernel's boot id, so a lock left by a previous boot is recognised as stale. */
export async function bootId(): Promise<string> {
  if (cachedBootId === undefined) {
    cachedBootId = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => 'unknown')).trim();
  }
  return cachedBootId;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as LockOwner;
    return typeof v.pid === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock atomically (O_EXCL create). A holder from another boot, or whose pid is gone,
 * is stale and replaced; a live holder makes this throw LockedError (exit 3) naming its pid.
 */
export async function acquireLock(file: string, command: string): Promise<HeldLock> {
  await mkdir(dirname(file), { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    bootId: await bootId(),
    command,
    startedAt: new Date().toISOString(),
  };
  // The lock is created complete: written to a private temp file, then hard-linked into place
  // (link fails if the lock exists), so nobody ever reads a half-written lock.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(owner), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, file);
        return makeHeld(file, owner);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = await readOwner(file);
      const live =
        holder !== undefined &&
        holder.bootId === owner.bootId &&
        (holder.pid === process.pid ? heldHere.has(file) : isAlive(holder.pid));
      if (holder && live) {
        throw new LockedError(
          `another appimage-keeper run (pid ${holder.pid}, "${holder.command}", since ${holder.startedAt}) holds the lock ${file}`,
          {
            hint: 'wait for it to finish; if that process is not appimage-keeper, remove the lock file',
            details: { pid: holder.pid },
          },
        );
      }
      await breakStaleLock(file, holder);
    }
  } finally {
    await rm(tmp, { force: true });
  }
  throw new LockedError(`could not take the lock ${file}`);
}

/**
 * Removes a stale lock without ever deleting a fresh one taken meanwhile: the file is renamed
 * aside (only one process can move a given file), and if what was moved turns out not to be the
 * stale owner we judged, it is linked back.
 */
async function breakStaleLock(file: string, stale: LockOwner | undefined): Promise<void> {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readOwner(aside);
  const same =
    moved !== undefined &&
    stale !== undefined &&
    moved.pid === stale.pid &&
    moved.startedAt === stale.startedAt &&
    moved.bootId === stale.bootId;
  if (!same && moved !== undefined) await link(aside, file).catch(() => undefined);
  await rm(aside, { force: true });
}

function makeHeld(file: string, owner: LockOwner): HeldLock {
  let released = false;
  heldHere.add(file);
  const stillOurs = (text: string): boolean => {
    try {
      const v = JSON.parse(text) as LockOwner;
      return v.pid === owner.pid && v.startedAt === owner.startedAt && v.bootId === owner.bootId;
    } catch {
      return false;
    }
  };
  return {
    owner,
    async release() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      const text = await readFile(file, 'utf8').catch(() => '');
      if (stillOurs(text)) await rm(file, { force: true });
    },
    releaseSync() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      try {
        if (stillOurs(readFileSync(file, 'utf8'))) rmSync(file, { force: true });
      } catch {
        // Already gone.
      }
    },
  };
}
