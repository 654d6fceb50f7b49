/**
 * Runs programs asynchronously: the in-process sim must keep answering while a child runs, so
 * the synchronous child_process calls would deadlock a test that talks to it.
 */
import { execFile } from 'node:child_process';

/** Runs `cmd args` and resolves with its stdout; rejects with its stderr when it fails or times out. */
export function runProgram(
  cmd: string,
  args: string[],
  opts: { timeoutMs: number; cwd?: string },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { timeout: opts.timeoutMs, ...(opts.cwd ? { cwd: opts.cwd } : {}) },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${cmd} failed: ${err.message}\n${stderr}`, { cause: err })) : resolve(stdout),
    );
  });
}

/** Runs an installed AppImage without arguments and returns its trimmed stdout. */
export async function execInstalled(file: string, timeoutMs = 10_000): Promise<string> {
  return (await runProgram(file, [], { timeoutMs })).trim();
}
