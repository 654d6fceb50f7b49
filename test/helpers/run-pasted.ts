/**
 * A command line we printed, run the way a user runs it: pasted into `/bin/sh`, with
 * `appimage-keeper` on PATH being the built CLI. What the shell makes of the quoting is the test.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shellQuote } from '../../src/core/shell-quote.js';
import { CLI_PATH, refuseInFastRun } from './run-cli.js';

/** What the pasted line did. */
export interface PastedRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `line` through `sh -c` in `cwd`, with a shim `appimage-keeper` (under `cwd/.shim`) first on PATH. */
export async function runPasted(line: string, env: NodeJS.ProcessEnv, cwd: string): Promise<PastedRun> {
  refuseInFastRun('runPasted');
  const shim = join(cwd, '.shim');
  await mkdir(shim, { recursive: true });
  const program = join(shim, 'appimage-keeper');
  await writeFile(program, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(CLI_PATH)} "$@"\n`);
  await chmod(program, 0o755);
  // Not spawnSync: the sim answering the CLI runs in this process.
  const child = spawn('/bin/sh', ['-c', line], {
    cwd,
    env: { ...env, PATH: `${shim}:${env.PATH ?? '/usr/bin:/bin'}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, stdout, stderr };
}
