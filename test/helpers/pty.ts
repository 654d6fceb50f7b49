/**
 * Runs the built CLI on a real pseudo-terminal (util-linux `script`), so stdout and stderr are
 * TTYs of a chosen width: what `list` fitting and the progress bars are drawn for.
 */
import { spawn } from 'node:child_process';
import { CLI_PATH, REPO_ROOT, refuseInFastRun } from './run-cli.js';

/** Options of one run on a pseudo-terminal. */
export interface PtyRunOptions {
  env: NodeJS.ProcessEnv;
  /** Terminal width set with `stty cols` before the CLI starts. */
  columns: number;
  /** Kill the run after this long (default 60 s) and reject. */
  timeoutMs?: number;
  /** Typed on the terminal once the output so far matches `after` (a prompt's answer). */
  answer?: { after: RegExp; text: string } | undefined;
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
  refuseInFastRun('runCliInPty');
  const command = [
    `stty cols ${opts.columns} rows 50`,
    [process.execPath, CLI_PATH, ...args].map(shellQuote).join(' '),
  ].join('; ');
  return new Promise((resolve, reject) => {
    // -e: exit with the CLI's status; /dev/null: no typescript file.
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: opts.env,
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Without an answer to type, the terminal's input ends at once (as /dev/null would).
    if (!opts.answer) child.stdin.end();
    const chunks: PtyRun['chunks'] = [];
    let answered = false;
    child.stdout.on('data', (b: Buffer) => {
      chunks.push({ at: Date.now(), text: b.toString('utf8') });
      if (opts.answer && !answered && opts.answer.after.test(chunks.map((c) => c.text).join(''))) {
        answered = true;
        child.stdin.write(opts.answer.text);
      }
    });
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

/** What the screen showed at one moment: its lines, and when the bytes that drew it arrived. */
export interface ScreenFrame {
  at: number;
  lines: string[];
}

// One escape sequence (CSI), a CR, a LF, or one printable character.
// eslint-disable-next-line no-control-regex
const TOKEN = /\x1b\[([0-9;?]*)([A-Za-z])|\x1b[78]|\r|\n|[^\x1b\r\n]/gu;

/**
 * Replays terminal output on a minimal screen (cursor up/down/column, clear line, clear below, CR,
 * LF) and returns the screen as it stood before each line was redrawn (each cursor-up or move to a
 * column) and at the end: what a person saw, with the arrival time of the bytes that drew it.
 * Lines keep their places while a redraw goes on, so a frame caught mid-redraw still shows each
 * line where it is drawn.
 */
export function screenFrames(chunks: PtyRun['chunks']): ScreenFrame[] {
  const lines: string[][] = [[]];
  const frames: ScreenFrame[] = [];
  let row = 0;
  let col = 0;
  let at = 0;
  const line = (): string[] => {
    while (lines.length <= row) lines.push([]);
    return lines[row] ?? [];
  };
  const snap = (): void => {
    const shown = lines.map((l) => l.join('').trimEnd());
    const last = frames.at(-1);
    if (!last || last.lines.join('\n') !== shown.join('\n')) frames.push({ at, lines: shown });
  };
  for (const chunk of chunks) {
    at = chunk.at;
    for (const m of chunk.text.matchAll(TOKEN)) {
      const [token, params, command] = m;
      if (command !== undefined) {
        const n = Number(params?.replace('?', '') || '0');
        if (command === 'A' || command === 'G') snap();
        if (command === 'A') {
          row = Math.max(0, row - Math.max(1, n));
        } else if (command === 'B') row += Math.max(1, n);
        else if (command === 'G') col = Math.max(1, n) - 1;
        else if (command === 'K') {
          const l = line();
          if (n === 0) l.length = Math.min(l.length, col);
          else if (n === 1) l.fill(' ', 0, col + 1);
          else l.length = 0;
        } else if (command === 'J' && n === 0) {
          line().length = Math.min(line().length, col);
          lines.length = row + 1;
        }
      } else if (token === '\r') col = 0;
      else if (token === '\n') {
        row++;
        line();
      } else if (!token.startsWith('\x1b')) {
        const l = line();
        while (l.length < col) l.push(' ');
        l[col++] = token;
      }
    }
  }
  snap();
  return frames;
}
