/**
 * The words a real `/bin/sh` makes of a command line we printed (quoting, expansion, `$(…)` and all),
 * without running the command itself: a test then runs those words in-process.
 */
import { spawnSync } from 'node:child_process';

/** `line`'s words as `sh` splits and expands them in `cwd` (its substitutions do run there). */
export function shellWords(line: string, cwd: string): string[] {
  const r = spawnSync('/bin/sh', ['-c', `set -- ${line}; printf '%s\\0' "$@"`], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sh could not read ${line}: ${r.stderr}`);
  return r.stdout.split('\0').slice(0, -1);
}
