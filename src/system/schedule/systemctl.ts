import { findProgram } from '../find-program.js';
import { runProgram, type ProgramResult } from '../run-program.js';
import { hasSessionBus } from '../session-bus.js';

/** How `systemctl --user` can be reached from here. */
export interface SystemctlAccess {
  /** Absolute path of systemctl on PATH, if any. */
  path: string | undefined;
  /** A user session bus exists (without it `systemctl --user` cannot talk to the user manager). */
  bus: boolean;
  env: NodeJS.ProcessEnv;
}

/** Looks up systemctl on the PATH of `env` and checks for a user session bus. */
export async function locateSystemctl(env: NodeJS.ProcessEnv): Promise<SystemctlAccess> {
  const [path, bus] = await Promise.all([findProgram('systemctl', env), hasSessionBus(env)]);
  return { path, bus, env };
}

/** True when `systemctl --user` can be run for real. */
export function usable(access: SystemctlAccess): access is SystemctlAccess & { path: string } {
  return access.path !== undefined && access.bus;
}

/** Why `systemctl --user` cannot be used, for the "run these yourself" message. */
export function unusableReason(access: SystemctlAccess): string {
  if (!access.path) return 'systemctl was not found on PATH';
  return 'no user session bus ($XDG_RUNTIME_DIR/bus or DBUS_SESSION_BUS_ADDRESS)';
}

/** The command line a user would type, for printing. */
export function commandLine(args: readonly string[]): string {
  return ['systemctl', '--user', ...args].join(' ');
}

/** Runs `systemctl --user ARGS`. */
export function systemctlUser(
  access: SystemctlAccess & { path: string },
  args: readonly string[],
): Promise<ProgramResult> {
  return runProgram(access.path, ['--user', ...args], { env: access.env });
}

/** Parses `systemctl show` output (`Key=Value` lines). */
export function parseShow(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  return out;
}
