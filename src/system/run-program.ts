import { execFile, type ChildProcess } from 'node:child_process';

/** What a helper program printed and how it ended. */
export interface ProgramResult {
  /** Exit status; null when it was killed (timeout) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Extra time after the deadline for the killed program's output pipes to close. */
const BACKSTOP_MS = 1000;

/**
 * Runs a helper program (systemctl, notify-send, systemd-analyze, a unit's ExecStart) asynchronously
 * with a deadline and bounded output. Never throws: a program that cannot start, hangs or floods
 * its output is reported through `code: null`.
 */
export function runProgram(
  file: string,
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; timeoutMs?: number; maxBuffer?: number },
): Promise<ProgramResult> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return new Promise((resolve) => {
    let settled = false;
    let child: ChildProcess | undefined;
    // A child that left a grandchild holding its output pipes would keep execFile waiting forever.
    const backstop = setTimeout(() => {
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      finish({ code: null, stdout: '', stderr: `${file} did not finish within ${timeoutMs} ms` });
    }, timeoutMs + BACKSTOP_MS);
    const finish = (r: ProgramResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(backstop);
      resolve(r);
    };
    try {
      child = execFile(
        file,
        [...args],
        {
          env: opts.env,
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: opts.maxBuffer ?? 1024 * 1024,
          encoding: 'utf8',
        },
        (err, stdout, stderr) => {
          if (!err) {
            finish({ code: 0, stdout, stderr });
            return;
          }
          const code = typeof err.code === 'number' ? err.code : null;
          finish({ code, stdout, stderr: stderr || err.message });
        },
      );
    } catch (err) {
      // Arguments execFile refuses outright (a NUL byte): the program never started.
      finish({ code: null, stdout: '', stderr: err instanceof Error ? err.message : String(err) });
    }
  });
}
