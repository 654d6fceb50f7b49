import type { CliRun } from './run-cli.js';

/**
 * The entry of app `name` in a `--json` document listing `apps` (update, check, remove, ...);
 * throws with the CLI's output when it is absent, so the test fails there and shows why.
 */
export function appOf<A extends { name: string }>(run: CliRun<{ apps: A[] }>, name: string): A {
  const found = run.json?.apps.find((a) => a.name === name);
  if (!found) throw new Error(`no entry for ${name} in ${run.stdout}\nstderr: ${run.stderr}`);
  return found;
}
