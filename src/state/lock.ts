import { rmSync } from 'node:fs';
import { link, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { LockedError, writeFailure } from '../core/errors.js';
import { atomicTempPid } from '../core/atomic-files.js';
import { bootId, isProcessAlive } from '../core/process-owner.js';
import { MAX_LOCK_FILE_BYTES, readLocalJson } from './local-json.js';

export { bootId };

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

// Lock files this process holds right now. A lock file naming our own pid that is not in here was
// left by an earlier process that had the same pid (pid reuse, common in containers): stale.
const heldHere = new Set<string>();

/** The owner record in a lock file's parsed JSON, or undefined when it is not one. */
export function lockOwnerOf(value: unknown): LockOwner | undefined {
  const v = value as Partial<LockOwner> | null;
  return typeof v === 'object' && v !== null && typeof v.pid === 'number' ? (v as LockOwner) : undefined;
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const read = readLocalJson(file, MAX_LOCK_FILE_BYTES);
    return read.kind === 'ok' ? lockOwnerOf(read.value) : undefined;
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
  await writeFile(tmp, JSON.stringify(owner), { mode: 0o600, flag: 'wx' }).catch(async (err: unknown) => {
    await rm(tmp, { force: true });
    throw writeFailure(err, file);
  });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, file);
        const held = makeHeld(file, owner);
        await cleanStaleTemps(file, tmp);
        return held;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readOwner(file);
      const live =
        holder !== undefined &&
        holder.bootId === owner.bootId &&
        (holder.pid === process.pid ? heldHere.has(file) : isProcessAlive(holder.pid));
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
  const moved = readOwner(aside);
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
  const stillOurs = (): boolean => {
    try {
      const read = readLocalJson(file, MAX_LOCK_FILE_BYTES);
      const v = read.kind === 'ok' ? lockOwnerOf(read.value) : undefined;
      return v?.pid === owner.pid && v.startedAt === owner.startedAt && v.bootId === owner.bootId;
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
      if (stillOurs()) await rm(file, { force: true });
    },
    releaseSync() {
      if (released) return;
      released = true;
      heldHere.delete(file);
      try {
        if (stillOurs()) rmSync(file, { force: true });
      } catch {
        // Already gone.
      }
    },
  };
}

/**
 * Removes temp files a killed run left in the lock's folder: `lock.<pid>.<hex>` and
 * `lock.stale.<pid>.<hex>` from taking the lock, `.<file>.<pid>.<hex>.tmp` from atomic writes
 * (state, cache, pending installs). Only files whose pid is gone; runs under the lock just taken.
 */
async function cleanStaleTemps(lockFile: string, ownTmp: string): Promise<void> {
  const dir = dirname(lockFile);
  const base = basename(lockFile).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lockTemp = new RegExp(`^${base}\\.(?:stale\\.)?(\\d{1,10})\\.[0-9a-f]{8}$`);
  for (const sub of [dir, join(dir, 'pending')]) {
    const names = await readdir(sub).catch(() => [] as string[]);
    for (const name of names) {
      const m = sub === dir ? lockTemp.exec(name) : undefined;
      const pid = m ? Number(m[1]) : atomicTempPid(name);
      if (pid === undefined || join(sub, name) === ownTmp) continue;
      if (pid === process.pid || isProcessAlive(pid)) continue;
      await rm(join(sub, name), { force: true });
    }
  }
}
