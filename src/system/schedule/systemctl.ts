import { stat } from 'node:fs/promises';
import type { Layout } from '../../config/paths.js';
import { findProgram } from '../find-program.js';
import { runProgram, type ProgramResult } from '../run-program.js';
import { hasSessionBus } from '../session-bus.js';

/** How systemctl can be reached from here: the user manager (`--user`) or the system one (`--system`). */
export interface SystemctlAccess {
  /** Absolute path of systemctl on PATH, if any. */
  path: string | undefined;
  /**
   * The manager is reachable: a user session bus for the user layout, a booted systemd
   * (/run/systemd/system) for the system one.
   */
  bus: boolean;
  layout: Layout;
  env: NodeJS.ProcessEnv;
}

// sd_booted(3): systemd is the running init exactly when this directory exists.
async function systemdBooted(): Promise<boolean> {
  return stat('/run/systemd/system').then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Looks up systemctl on the PATH of `env` and checks that the layout's manager is reachable. */
export async function locateSystemctl(
  env: NodeJS.ProcessEnv,
  layout: Layout = 'user',
): Promise<SystemctlAccess> {
  const [path, bus] = await Promise.all([
    findProgram('systemctl', env),
    layout === 'system' ? systemdBooted() : hasSessionBus(env),
  ]);
  return { path, bus, layout, env };
}

/** True when systemctl can be run for real. */
export function usable(access: SystemctlAccess): access is SystemctlAccess & { path: string } {
  return access.path !== undefined && access.bus;
}

/** Why systemctl cannot be used, for the "run these yourself" message. */
export function unusableReason(access: SystemctlAccess): string {
  if (!access.path) return 'systemctl was not found on PATH';
  if (access.layout === 'system') return 'systemd is not running on this machine (no /run/systemd/system)';
  return 'no user session bus ($XDG_RUNTIME_DIR/bus or DBUS_SESSION_BUS_ADDRESS)';
}

function scopeFlag(layout: Layout): string {
  return layout === 'system' ? '--system' : '--user';
}

/** The command line a user would type, for printing. */
export function commandLine(args: readonly string[], layout: Layout = 'user'): string {
  return ['systemctl', scopeFlag(layout), ...args].join(' ');
}

/** Runs `systemctl --user ARGS` (or `--system` for the system layout). */
export function runSystemctl(
  access: SystemctlAccess & { path: string },
  args: readonly string[],
): Promise<ProgramResult> {
  return runProgram(access.path, [scopeFlag(access.layout), ...args], { env: access.env });
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
