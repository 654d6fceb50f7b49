import { readFile } from 'node:fs/promises';
import type { Context } from '../../core/context.js';
import { bootId, type LockOwner } from '../../state/lock.js';
import { check, type DoctorCheck } from './types.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock left by a run that no longer exists (other boot, dead pid) or that cannot be read. */
export async function lockCheck(ctx: Context): Promise<DoctorCheck> {
  const file = ctx.paths.lockFile;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return check('lock', 'ok', 'no run in progress');
    return check(
      'lock',
      'fail',
      `cannot read the lock ${file}: ${(err as Error).message}`,
      'fix the permissions of the state directory',
    );
  }
  let owner: LockOwner | undefined;
  try {
    const v = JSON.parse(text) as LockOwner;
    owner = typeof v.pid === 'number' ? v : undefined;
  } catch {
    owner = undefined;
  }
  const hint = `the next run replaces it; or delete ${file}`;
  if (!owner) return check('lock', 'warn', `the lock ${file} is unreadable (half-written or damaged)`, hint);
  if (owner.bootId !== (await bootId())) {
    return check(
      'lock',
      'warn',
      `stale lock from pid ${owner.pid} ("${owner.command}", ${owner.startedAt}) of an earlier boot`,
      hint,
    );
  }
  if (owner.pid !== process.pid && alive(owner.pid)) {
    return check(
      'lock',
      'ok',
      `a run is in progress: pid ${owner.pid} ("${owner.command}", since ${owner.startedAt})`,
    );
  }
  return check(
    'lock',
    'warn',
    `stale lock from pid ${owner.pid} ("${owner.command}", ${owner.startedAt}), which is gone`,
    hint,
  );
}
