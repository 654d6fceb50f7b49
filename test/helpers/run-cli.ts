import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (two levels above test/helpers). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bundled CLI; `npm run build` produces it. */
export const CLI_PATH = join(REPO_ROOT, 'dist', 'appimage-keeper.cjs');

/**
 * What one CLI run produced. `json` is the parsed stdout when `--json` was passed; pass a type
 * argument (`runCli<MyShape>(...)`) to read it without unsafe-any lint errors.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the brief's contract: any JSON document
export interface CliRun<T = any> {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  json?: T;
}

/** Options of one CLI run. */
export interface RunCliOptions {
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Kill the process after this long (default 60 s) and reject. */
  timeoutMs?: number;
  /** Another build of the CLI (default CLI_PATH), e.g. the test-hooks build. */
  cliPath?: string;
  /** An executable to run instead of `node dist/appimage-keeper.cjs` (the standalone build, an installed bin). */
  program?: string;
}

/**
 * `npm run test:fast` skips every test file that imports a helper running the built CLI and does
 * not build dist/ (scripts/run-tests.mjs); a file that slips through that rule fails here instead
 * of silently testing an old build.
 */
export function refuseInFastRun(what: string): void {
  if (process.env.KEEPER_TEST_FAST === '1')
    throw new Error(
      `${what} runs the built CLI (dist/), which npm run test:fast neither builds nor selects: ` +
        'import it from test/helpers/run-cli.ts directly so the runner sees it, or use runInProcess',
    );
}

/** Spawns the built CLI with `args` and no stdin, and collects its output. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see CliRun
export function runCli<T = any>(args: string[], opts: RunCliOptions): Promise<CliRun<T>> {
  refuseInFastRun('runCli');
  return new Promise((resolve, reject) => {
    const [cmd, argv] = opts.program
      ? [opts.program, args]
      : [process.execPath, [opts.cliPath ?? CLI_PATH, ...args]];
    const child = spawn(cmd, argv, {
      env: opts.env,
      cwd: opts.cwd ?? REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`appimage-keeper ${args.join(' ')} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const run: CliRun<T> = { code, signal, stdout, stderr };
      if (args.includes('--json')) {
        try {
          run.json = JSON.parse(stdout) as T;
        } catch (e) {
          reject(
            new Error(
              `--json output is not one JSON document: ${(e as Error).message}\n${stdout}\n${stderr}`,
            ),
          );
          return;
        }
      }
      resolve(run);
    });
  });
}

/** A CLI process started in the background, for tests that kill it or race it. */
export interface BackgroundCli {
  child: ChildProcess;
  /** Resolves when it exits, with what it printed. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts the built CLI without waiting for it (runCli waits; these tests need the pid). */
export function startCli(args: string[], env: NodeJS.ProcessEnv): BackgroundCli {
  refuseInFastRun('startCli');
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
  child.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
  const done = new Promise<Awaited<BackgroundCli['done']>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}
