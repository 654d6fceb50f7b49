/**
 * The script strategy: run the recipe's bash script, which prints the download URL and the
 * version on two lines. The script runs in its own process group so a timeout kills everything
 * it started.
 */
import { spawn } from 'node:child_process';
import { access } from 'node:fs/promises';
import type { AppSettings, ScriptStrategy } from '../config/types.js';
import { KeeperError } from '../core/errors.js';
import { appImageArch } from './forge/arch.js';
import { assetNameFromUrl } from './asset-name.js';
import type { Source } from './source.js';
import type { ResolveDeps, ResolveOutcome } from './types.js';

/** Default seconds before a script is killed. */
export const DEFAULT_SCRIPT_TIMEOUT = 120;
/** Captured stdout and stderr are each capped at this many bytes. */
const OUTPUT_CAP = 64 * 1024;
const STDERR_TAIL_LINES = 10;

/** The program that runs every resolver script. */
const SHELL = 'bash';

/** The recipe's bash script prints the URL and the version; each app queues on its own limiter key. */
export const script = {
  kind: 'script',
  caps: { versionFromFile: false, releaseAssets: false },
  bind: (strategy: ScriptStrategy, settings: AppSettings) => ({
    limiterKey: `script:${settings.name}`,
    runs: { program: SHELL, file: strategy.script_path },
    resolve: (deps: ResolveDeps) => resolveScript(strategy, settings, deps),
  }),
} satisfies Source<ScriptStrategy>;

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
  // Root runs it for every account: judged again just before, whatever loaded the recipe.
  if (deps.ctx.paths.layout === 'system') {
    const { notRootOnlyError, rootOnlyFindings } = await import('../core/root-only.js');
    const findings = rootOnlyFindings(path);
    if (findings.length > 0) throw notRootOnlyError(findings);
  }
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
      ...scriptEnv(deps.ctx.env, strategy.script_env_token === true),
      // The run's effective proxy (config.yml over the environment), so the script's curl agrees.
      ...deps.ctx.http.proxyEnv,
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
  const { url, version, extraLines } = parseScriptOutput(run.stdout, run.stdoutOverflow, path);
  if (extraLines > 0) {
    deps.ctx.emit({
      type: 'info',
      app: settings.name,
      message: `script ${path} printed ${extraLines} more line${extraLines === 1 ? '' : 's'} after the URL and the version; ignored`,
    });
  }
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

/** Variables that carry the hub token; a script sees them only when its recipe allows it. */
export const TOKEN_ENV_VARS = ['HUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN'] as const;

/** The environment a script runs with: ours, minus the token variables unless `passToken`. */
export function scriptEnv(env: NodeJS.ProcessEnv, passToken: boolean): NodeJS.ProcessEnv {
  if (passToken) return { ...env };
  const copy = { ...env };
  for (const name of TOKEN_ENV_VARS) delete copy[name];
  return copy;
}

/**
 * Checks the stdout contract: two non-empty lines, the first an http(s) URL. Lines after the second
 * are ignored and counted (fp-appimage-updater reads the first two too).
 */
export function parseScriptOutput(
  stdout: string,
  overflow: boolean,
  path: string,
): { url: string; version: string; extraLines: number } {
  const fail = (why: string): KeeperError =>
    new KeeperError('SCRIPT_OUTPUT', `script ${path} ${why}`, {
      hint: 'print two lines: the download URL, then the version',
      details: { stdout: stdout.slice(0, 500) },
    });
  if (overflow) throw fail(`printed more than ${OUTPUT_CAP} bytes`);
  const lines = stdout.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length < 2)
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
  return { url: first, version: second, extraLines: lines.length - 2 };
}

// After the script exits, output it wrote is still in the pipe; this long is enough to read it. A
// detached process (setsid) can keep the pipe open forever, so the run never waits for its close.
const DRAIN_AFTER_EXIT_MS = 250;

function runScript(
  path: string,
  cwd: string,
  timeoutSeconds: number,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
): Promise<ScriptRun> {
  return new Promise((resolve, reject) => {
    // detached: the script leads its own process group, so one kill reaches everything it started.
    const child = spawn(SHELL, [path], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = capped();
    const stderr = capped(true);
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let drain: NodeJS.Timeout | undefined;
    let settled = false;
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
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      if (settled || !exit) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      signal?.removeEventListener('abort', onAbort);
      // Release our end of pipes a detached process may still hold.
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        ...exit,
        timedOut,
        aborted,
        stdout: stdout.text(),
        stdoutOverflow: stdout.overflow(),
        stderr: stderr.text(),
      });
    };
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // The script's own exit ends the run: background jobs in its group die with it, and a process
    // that left the group (setsid) is not waited for.
    child.on('exit', (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      killGroup();
      drain = setTimeout(finish, DRAIN_AFTER_EXIT_MS);
    });
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(new KeeperError('SCRIPT_EXIT', `cannot run bash for ${path}: ${err.message}`, { cause: err }));
    });
    child.on('close', finish);
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
