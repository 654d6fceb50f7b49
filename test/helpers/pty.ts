/**
 * Runs the built CLI on a real pseudo-terminal (util-linux `script`), so stdout and stderr are
 * TTYs of a chosen width: what `list` fitting and the progress bars are drawn for.
 */
import { spawn } from 'node:child_process';
import { CLI_PATH, REPO_ROOT } from './run-cli.js';

/** Options of one run on a pseudo-terminal. */
export interface PtyRunOptions {
  env: NodeJS.ProcessEnv;
  /** Terminal width set with `stty cols` before the CLI starts. */
  columns: number;
  /** Kill the run after this long (default 60 s) and reject. */
  timeoutMs?: number;
}

/** What the terminal received, as it arrived: each chunk with the wall-clock time it was read. */
export interface PtyRun {
  code: number | null;
  /** Everything written to the terminal (stdout and stderr interleaved), raw: escapes and CRs kept. */
  raw: string;
  chunks: { at: number; text: string }[];
}

function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Runs `appimage-keeper args` on a pseudo-terminal `columns` wide and collects what it drew. */
export function runCliInPty(args: string[], opts: PtyRunOptions): Promise<PtyRun> {
  const command = [
    `stty cols ${opts.columns} rows 50`,
    [process.execPath, CLI_PATH, ...args].map(shellQuote).join(' '),
  ].join('; ');
  return new Promise((resolve, reject) => {
    // -e: exit with the CLI's status; /dev/null: no typescript file.
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: opts.env,
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: PtyRun['chunks'] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push({ at: Date.now(), text: b.toString('utf8') }));
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const timeoutMs = opts.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`appimage-keeper ${args.join(' ')} on a pty did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (err) chunks.push({ at: Date.now(), text: err });
      resolve({ code, raw: chunks.map((c) => c.text).join(''), chunks });
    });
  });
}

/** Terminal output as lines of text: colour and cursor escapes removed, the pty's CR LF made LF. */
export function screenLines(raw: string): string[] {
  return (
    raw
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/\r\n/g, '\n')
      .split('\n')
  );
}
