import type { Context } from '../../context/context.js';
import { MAX_LOCK_FILE_BYTES, readLocalJson } from '../../state/local-json.js';
import { bootId, lockOwnerOf } from '../../state/lock.js';
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
  let read;
  try {
    read = readLocalJson(file, MAX_LOCK_FILE_BYTES);
  } catch (err) {
    return check(
      'lock',
      'fail',
      `cannot read the lock ${file}: ${(err as Error).message}`,
      'fix the permissions of the state directory',
    );
  }
  if (read.kind === 'missing') return check('lock', 'ok', 'no run in progress');
  const owner = read.kind === 'ok' ? lockOwnerOf(read.value) : undefined;
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
