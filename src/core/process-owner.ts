import { readFile } from 'node:fs/promises';

let cachedBootId: string | undefined;

/** The kernel's boot id, so a file left by a previous boot is recognised as stale ('unknown' when unreadable). */
export async function bootId(): Promise<string> {
  if (cachedBootId === undefined) {
    cachedBootId = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => 'unknown')).trim();
  }
  return cachedBootId;
}

/** Eight hex digits of the boot id: enough to tell boots apart inside a file name. */
export async function bootTag(): Promise<string> {
  const hex = (await bootId()).replace(/[^0-9a-f]/gi, '').toLowerCase();
  return (hex + '00000000').slice(0, 8);
}

/** Whether a process with this pid exists (one we may not signal counts as alive). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
