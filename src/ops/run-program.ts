import { execFile } from 'node:child_process';

/** What a helper program printed and how it ended. */
export interface ProgramResult {
  /** Exit status; null when it was killed (timeout) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a helper program (systemctl, notify-send, systemd-analyze) asynchronously with a deadline.
 * Never throws: a program that cannot start or hangs is reported through `code: null`.
 */
export function runProgram(
  file: string,
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ProgramResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { env: opts.env, timeout: opts.timeoutMs ?? 15_000, maxBuffer: 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (!err) {
          resolve({ code: 0, stdout, stderr });
          return;
        }
        const code = typeof err.code === 'number' ? err.code : null;
        resolve({ code, stdout, stderr: stderr || err.message });
      },
    );
  });
}
