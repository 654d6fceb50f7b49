/**
 * Runs the CLI in this process through src/main.ts's runCli(io), with the same result shape as
 * helpers/run-cli.ts's runCli, so a test that only needs the CLI's output (not a real process:
 * signals, a terminal, the lock held by another pid, the bundle) runs without `npm run build`.
 * Differences from the bundle: the version is 0.0.0-dev and the launcher's fast answers
 * (`--version`, `completion <shell>`) go through the full program.
 */
import { Writable } from 'node:stream';
import { runCli as runCliIo } from '../../src/main.js';
import type { CliIo } from '../../src/cli/invocation.js';
import type { CliRun } from './run-cli.js';

/** Options of one in-process run; no cwd: the process is shared, so it stays where it is. */
export interface InProcessOptions {
  env: NodeJS.ProcessEnv;
  /** Fail the test when a run takes longer (default 60 s), as runCli's kill would. */
  timeoutMs?: number;
}

/** Collects everything written to it as UTF-8 text. */
class TextSink extends Writable {
  private readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    done();
  }
  /** The text written so far. */
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Runs `appimage-keeper args` in-process and collects its exit code and output. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as runCli: any JSON document
export async function runInProcess<T = any>(args: string[], opts: InProcessOptions): Promise<CliRun<T>> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const io: CliIo = { argv: args, env: opts.env, stdout, stderr };
  const running = runCliIo(io);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`appimage-keeper ${args.join(' ')} did not finish within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const code = await Promise.race([running, timeout]);
    const run: CliRun<T> = { code, signal: null, stdout: stdout.text(), stderr: stderr.text() };
    if (args.includes('--json')) {
      try {
        run.json = JSON.parse(run.stdout) as T;
      } catch (e) {
        throw new Error(
          `--json output is not one JSON document: ${(e as Error).message}\n${run.stdout}\n${run.stderr}`,
          { cause: e },
        );
      }
    }
    return run;
  } finally {
    clearTimeout(timer);
  }
}
