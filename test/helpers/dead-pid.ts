import { spawnSync } from 'node:child_process';

/** The pid of a process that has already exited (for stale-owner tests). */
export function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}
