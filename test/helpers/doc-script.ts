import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './run-cli.js';

/** Runs a generated-doc script (`scripts/<name>`, e.g. `--check`) through tsx from the repository root. */
export function runDocScript(name: string, args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', name), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stderr: r.stderr };
}
