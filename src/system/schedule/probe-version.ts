import { runProgram } from '../run-program.js';

/** What `<program> --version` answered. */
export type VersionProbe = { ok: true; version: string } | { ok: false; detail: string };

/** A launcher prints one short line; anything slower or larger is not a working appimage-keeper. */
export const PROBE_TIMEOUT_MS = 5000;
const PROBE_MAX_OUTPUT = 64 * 1024;

// Enough for a version or an error line; the rest is noise in a one-line report.
function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.trim().slice(0, 200);
}

/**
 * Runs `argv --version` (no shell, 5 s, 64 KiB of output at most) in `env`, as the timer would run
 * it, and returns the first line it printed or why it did not run.
 */
export async function probeVersion(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<VersionProbe> {
  const [file, ...args] = argv;
  if (!file) return { ok: false, detail: 'no program' };
  const r = await runProgram(file, [...args, '--version'], {
    env,
    timeoutMs: PROBE_TIMEOUT_MS,
    maxBuffer: PROBE_MAX_OUTPUT,
  });
  if (r.code === 0) return { ok: true, version: firstLine(r.stdout) };
  const said = firstLine(r.stderr) || firstLine(r.stdout);
  if (r.code === null) return { ok: false, detail: said || 'it did not start' };
  return { ok: false, detail: `exit status ${r.code}${said ? `: ${said}` : ''}` };
}
