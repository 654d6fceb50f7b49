/**
 * The script strategy: run the recipe's bash script, which prints the download URL and the
 * version on two lines. The script runs in its own process group so a timeout kills everything
 * it started.
 */
import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import type { AppSettings, ScriptStrategy } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { appImageArch } from '../forge/arch.js';
import { assetNameFromUrl } from './asset-name.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** Default seconds before a script is killed. */
export const DEFAULT_SCRIPT_TIMEOUT = 120;
/** Captured stdout and stderr are each capped at this many bytes. */
const OUTPUT_CAP = 64 * 1024;
const STDERR_TAIL_LINES = 10;

/** What one run of a script produced. */
interface ScriptRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stdoutOverflow: boolean;
  stderr: string;
}

/** Runs a script recipe and reads its two-line answer. */
export async function resolveScript(
  strategy: ScriptStrategy,
  settings: AppSettings,
  deps: ResolveDeps,
): Promise<ResolveOutcome> {
  const path = strategy.script_path;
  try {
    await access(path);
  } catch (err) {
    throw new KeeperError('SCRIPT_NOT_FOUND', `script ${path} does not exist or is not readable`, {
      cause: err,
    });
  }
  const timeout = strategy.timeout ?? DEFAULT_SCRIPT_TIMEOUT;
  const run = await runScript(
    path,
    settings.recipeDir,
    timeout,
    {
      ...deps.ctx.env,
      APP_NAME: settings.name,
      APP_VERSION: deps.installedVersion ?? '',
      APP_ARCH: appImageArch(deps.ctx.arch),
    },
    deps.signal,
  );
  if (run.aborted)
    throw new KeeperError('SCRIPT_ABORTED', `script ${path} was stopped: the run was interrupted`);
  const stderrTail = tail(run.stderr);
  if (run.timedOut) {
    throw new KeeperError(
      'SCRIPT_TIMEOUT',
      `script ${path} did not finish within ${timeout} s and was killed`,
      {
        hint: 'raise strategy.timeout or make the script faster',
        details: { stderr: stderrTail },
      },
    );
  }
  if (run.code !== 0) {
    const how =
      run.code === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.code}`;
    throw new KeeperError('SCRIPT_EXIT', `script ${path} ${how}${stderrTail ? `:\n${stderrTail}` : ''}`, {
      details: { exitCode: run.code, signal: run.signal, stderr: stderrTail },
    });
  }
  const { url, version } = parseScriptOutput(run.stdout, run.stdoutOverflow, path);
  return {
    kind: 'resolved',
    requests: 0,
    notModified: false,
    resolution: {
      version,
      identity: `${url}|${version}`,
      url,
      assetName: assetNameFromUrl(url, settings.name),
    },
  };
}

/** Checks the stdout contract: exactly two non-empty lines, the first an http(s) URL. */
export function parseScriptOutput(
  stdout: string,
  overflow: boolean,
  path: string,
): { url: string; version: string } {
  const fail = (why: string): KeeperError =>
    new KeeperError('SCRIPT_OUTPUT', `script ${path} ${why}`, {
      hint: 'print exactly two lines: the download URL, then the version',
      details: { stdout: stdout.slice(0, 500) },
    });
  if (overflow) throw fail(`printed more than ${OUTPUT_CAP} bytes`);
  const lines = stdout.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length !== 2)
    throw fail(`printed ${lines.length} line${lines.length === 1 ? '' : 's'} instead of 2`);
  const [first = '', second = ''] = lines.map((l) => l.trim());
  if (!first) throw fail('printed an empty first line (expected the download URL)');
  if (!second) throw fail('printed an empty second line (expected the version)');
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    throw fail(`printed "${first.slice(0, 200)}" as line 1, which is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail(`printed a ${url.protocol} URL as line 1; only http and https are allowed`);
  }
  return { url: first, version: second };
}

function runScript(
  path: string,
  cwd: string,
  timeoutSeconds: number,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = capped();
    const stderr = capped(true);
    let timedOut = false;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutSeconds * 1000);
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // Background jobs the script left behind would hold the pipes open; they die with the script.
    child.on('exit', killGroup);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new KeeperError('SCRIPT_EXIT', `cannot run bash for ${path}: ${err.message}`, { cause: err }));
    });
    child.on('close', (code, exitSignal) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({
        code,
        signal: exitSignal,
        timedOut,
        aborted,
        stdout: stdout.text(),
        stdoutOverflow: stdout.overflow(),
        stderr: stderr.text(),
      });
    });
  });
}

/** A byte-capped collector; stderr keeps its tail, stdout its head. */
function capped(keepTail = false): { push(chunk: Buffer): void; text(): string; overflow(): boolean } {
  let chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  return {
    push(chunk) {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= OUTPUT_CAP) return;
      over = true;
      const all = Buffer.concat(chunks);
      chunks = [keepTail ? all.subarray(all.length - OUTPUT_CAP) : all.subarray(0, OUTPUT_CAP)];
      size = OUTPUT_CAP;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    overflow: () => over,
  };
}

function tail(text: string): string {
  return text.trimEnd().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
}
