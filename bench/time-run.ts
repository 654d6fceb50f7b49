import { spawnSync } from 'node:child_process';

// bash's `times` builtin gives the children's CPU time (Node has no getrusage for a child) and
// $EPOCHREALTIME the wall time around the command alone, without bash's own start-up.
const TIMED = 's=$EPOCHREALTIME; "$@" >/dev/null; rc=$?; e=$EPOCHREALTIME; times; echo "$s $e $rc"';

function seconds(field: string): number {
  const m = /^(\d+)m([\d.]+)s$/.exec(field);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
}

/** Wall and CPU (user + system) seconds of one run of `argv`; throws when it fails. */
export function timeRun(argv: string[], env: NodeJS.ProcessEnv): { wall: number; cpu: number } {
  const r = spawnSync('/bin/bash', ['-c', TIMED, 'bench', ...argv], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  const lines = r.stdout.trim().split('\n');
  const [user = '', sys = ''] = (lines[1] ?? '').split(/\s+/);
  const [start = '', end = '', code = ''] = (lines[2] ?? '').split(' ');
  if (r.status !== 0 || code !== '0')
    throw new Error(`${argv.join(' ')} exited ${code || r.status}: ${r.stderr}`);
  const t = { wall: Number(end) - Number(start), cpu: seconds(user) + seconds(sys) };
  if (Number.isNaN(t.wall + t.cpu)) throw new Error(`no timing in ${r.stdout}`);
  return t;
}
