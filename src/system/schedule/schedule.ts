import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Layout } from '../../config/paths.js';
import type { Context } from '../../context/context.js';
import { KeeperError, UsageError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/atomic-files.js';
import { StateStore } from '../../state/store.js';
import type { RunRecord } from '../../state/types.js';
import { findProgram } from '../find-program.js';
import { runProgram } from '../run-program.js';
import type { ProcessFacts } from '../self-update/install-kind.js';
import { parseInterval, type TimerSchedule } from './interval.js';
import { lingerState, type LingerState } from './linger.js';
import { unitProxyEnvironment } from './proxy-environment.js';
import { UNIT_HEADER } from './service-file.js';
import { chooseServiceProgram, type ServiceProgram } from './service-program.js';
import {
  commandLine,
  locateSystemctl,
  parseShow,
  runSystemctl,
  unusableReason,
  usable,
  type SystemctlAccess,
} from './systemctl.js';
import { unitLocation, type UnitLocation } from './unit-location.js';
import { readUnitFile } from './read-unit-file.js';
import { everyOfTimer, readOnCalendar, renderUnits, serviceArgv } from './units.js';
import { isRegularFile } from '../../core/path-exists.js';
import { removeManPage, writeManPage } from './man-page-file.js';

/** What `schedule install` and `schedule remove` did, or left for the user to do. */
export interface ScheduleChange {
  /** Whose manager the units belong to: the user's (`systemctl --user`) or the system's. */
  layout: Layout;
  unitDir: string;
  files: string[];
  /** systemctl commands, run (applied) or to be run by the user (not applied). */
  commands: string[];
  applied: boolean;
  /** Why the commands were not run. */
  reason: string | undefined;
}

/** Result of `schedule install`. */
export interface ScheduleInstall extends ScheduleChange {
  schedule: TimerSchedule;
  execStart: string[];
  /** What ExecStart runs, the service's PATH, and warnings when that may break later. */
  program: ServiceProgram;
  /** Whether the user's manager outlives logout, so the timer also runs while logged out. */
  linger: LingerState;
  /** Proxy variables written into the unit, and those withheld because they hold credentials. */
  proxy: { written: string[]; withheld: string[] };
}

/** Timer and service properties reported by the user manager. */
export interface SystemdStatus {
  active: string | undefined;
  enabled: string | undefined;
  nextRun: string | undefined;
  lastRun: string | undefined;
  lastResult: string | undefined;
  lastExitStatus: string | undefined;
}

/** Result of `schedule status`. */
export interface ScheduleStatus {
  installed: boolean;
  unitDir: string;
  timer: string;
  service: string;
  onCalendar: string | undefined;
  /** Undefined when systemctl could not be asked (see `reason`). */
  systemd: SystemdStatus | undefined;
  reason: string | undefined;
  lastRun: RunRecord | undefined;
}

async function apply(
  access: SystemctlAccess,
  steps: string[][],
): Promise<{ commands: string[]; applied: boolean; reason: string | undefined }> {
  const commands = steps.map((step) => commandLine(step, access.layout));
  if (!usable(access)) return { commands, applied: false, reason: unusableReason(access) };
  for (const [i, step] of steps.entries()) {
    const r = await runSystemctl(access, step);
    if (r.code !== 0) {
      throw new KeeperError('SCHEDULE_SYSTEMCTL', `${commands[i] ?? ''} failed: ${r.stderr.trim()}`, {
        hint: `the unit files are written; run the remaining commands yourself:\n    ${commands.slice(i).join('\n    ')}`,
      });
    }
  }
  return { commands, applied: true, reason: undefined };
}

async function checkCalendar(ctx: Context, schedule: TimerSchedule): Promise<void> {
  const analyze = await findProgram('systemd-analyze', ctx.env);
  if (!analyze || !schedule.label.startsWith('OnCalendar=')) return;
  const r = await runProgram(analyze, ['calendar', schedule.onCalendar], { env: ctx.env });
  // Only a clean "invalid" answer counts; a sandbox that cannot run it says nothing about the value.
  if (r.code !== 0 && /Failed to parse calendar/i.test(r.stderr)) {
    throw new UsageError('SCHEDULE_INTERVAL', `invalid OnCalendar= expression: ${schedule.onCalendar}`, {
      hint: 'see `man systemd.time`, e.g. "Mon..Fri 09:00" or "*-*-* 04:00:00"; or use daily, weekly, 6h',
    });
  }
}

/**
 * Writes the user service and timer for `<program> [--config-dir DIR] --quiet update [--locked]` (the program
 * chosen by chooseServiceProgram for the running process `facts`), then reloads and enables the
 * timer through `systemctl --user` when a user bus exists.
 */
export async function installSchedule(
  ctx: Context,
  opts: {
    every?: string | undefined;
    facts: ProcessFacts;
    locked?: boolean | undefined;
    /** The rendered man page, written for the standalone executable (which ships none). */
    manPage?: string | undefined;
  },
): Promise<ScheduleInstall> {
  const loc = unitLocation(ctx.paths, ctx.env);
  const schedule = parseInterval(opts.every ?? keptEvery(loc));
  await checkCalendar(ctx, schedule);
  const program = await chooseServiceProgram(opts.facts, ctx.env);
  const proxy = unitProxyEnvironment(ctx.env);
  const cmd = {
    program: program.argv,
    unitPath: program.unitPath,
    configDir: loc.configDir,
    system: ctx.paths.layout === 'system',
    locked: opts.locked,
    proxyEnv: proxy.written,
  };
  const units = renderUnits(loc.base, cmd, schedule);
  await mkdir(loc.dir, { recursive: true });
  await writeFileAtomic(loc.servicePath, units.service, { root: loc.dir });
  await writeFileAtomic(loc.timerPath, units.timer, { root: loc.dir });
  // The unit names man:appimage-keeper(1); npm installs the page, the standalone executable writes it.
  const man =
    program.kind === 'standalone' && opts.manPage ? [await writeManPage(ctx.paths, opts.manPage)] : [];
  const access = await locateSystemctl(ctx.env, ctx.paths.layout);
  const done = await apply(access, [['daemon-reload'], ['enable', '--now', loc.timerName]]);
  return {
    layout: ctx.paths.layout,
    unitDir: loc.dir,
    files: [loc.servicePath, loc.timerPath, ...man],
    schedule,
    execStart: serviceArgv(cmd),
    program,
    // Lingering keeps a user's manager alive; a system timer has no user session to outlive.
    linger: cmd.system ? { user: undefined, enabled: undefined } : await lingerState(ctx.env),
    proxy: { written: Object.keys(proxy.written), withheld: proxy.withheld },
    ...done,
  };
}

/**
 * The interval of a timer we wrote before, as `--every` would give it: rewriting the units (after a
 * Node upgrade, as doctor suggests) keeps what the user chose. A timer we did not write counts not.
 */
function keptEvery(loc: UnitLocation): string | undefined {
  const timer = readUnitFile(loc.timerPath);
  if (timer.kind !== 'text' || !timer.text.startsWith(UNIT_HEADER)) return undefined;
  return everyOfTimer(timer.text);
}

/** Disables the timer (when systemctl is usable), deletes both unit files (and a man page we wrote) and reloads. */
export async function removeSchedule(ctx: Context): Promise<ScheduleChange> {
  const loc = unitLocation(ctx.paths, ctx.env);
  const access = await locateSystemctl(ctx.env, ctx.paths.layout);
  const present = await Promise.all([isRegularFile(loc.servicePath), isRegularFile(loc.timerPath)]);
  const files = [loc.servicePath, loc.timerPath].filter((_, i) => present[i]);
  const man = await removeManPage(ctx.paths);
  const manFiles = man ? [man] : [];
  if (files.length === 0) {
    return {
      layout: ctx.paths.layout,
      unitDir: loc.dir,
      files: manFiles,
      commands: [],
      applied: true,
      reason: undefined,
    };
  }
  if (!usable(access)) {
    // Without the user manager, do what `disable` does by hand (drop the wants link), delete the
    // files, and leave stopping the already-loaded timer to a session that has a bus.
    await rm(join(loc.dir, 'timers.target.wants', loc.timerName), { force: true });
    await Promise.all(files.map((f) => rm(f, { force: true })));
    const commands = [
      commandLine(['stop', loc.timerName], access.layout),
      commandLine(['daemon-reload'], access.layout),
    ];
    return {
      layout: ctx.paths.layout,
      unitDir: loc.dir,
      files: [...files, ...manFiles],
      commands,
      applied: false,
      reason: unusableReason(access),
    };
  }
  const first = await apply(access, [['disable', '--now', loc.timerName]]);
  await Promise.all(files.map((f) => rm(f, { force: true })));
  const second = await apply(access, [['daemon-reload']]);
  return {
    layout: ctx.paths.layout,
    unitDir: loc.dir,
    files: [...files, ...manFiles],
    commands: [...first.commands, ...second.commands],
    applied: true,
    reason: undefined,
  };
}

async function systemdStatus(
  access: SystemctlAccess & { path: string },
  loc: UnitLocation,
): Promise<SystemdStatus> {
  const timer = await runSystemctl(access, [
    'show',
    loc.timerName,
    '--property=ActiveState,UnitFileState,NextElapseUSecRealtime,LastTriggerUSec',
  ]);
  const service = await runSystemctl(access, ['show', loc.serviceName, '--property=Result,ExecMainStatus']);
  if (timer.code !== 0) {
    throw new KeeperError(
      'SCHEDULE_SYSTEMCTL',
      `${commandLine(['show', loc.timerName], access.layout)} failed: ${timer.stderr.trim()}`,
    );
  }
  const t = parseShow(timer.stdout);
  const s = service.code === 0 ? parseShow(service.stdout) : {};
  const value = (v: string | undefined): string | undefined => (v && v !== 'n/a' ? v : undefined);
  return {
    active: value(t.ActiveState),
    enabled: value(t.UnitFileState),
    nextRun: value(t.NextElapseUSecRealtime),
    lastRun: value(t.LastTriggerUSec),
    lastResult: value(s.Result),
    lastExitStatus: value(s.ExecMainStatus),
  };
}

/** Installed units, next and last run from the user manager, and the last run's outcome from state. */
export async function scheduleStatus(ctx: Context): Promise<ScheduleStatus> {
  const loc = unitLocation(ctx.paths, ctx.env);
  const timer = readUnitFile(loc.timerPath);
  const timerText = timer.kind === 'text' ? timer.text : undefined;
  const installed = timerText !== undefined && (await isRegularFile(loc.servicePath));
  const store = await StateStore.load(ctx.paths.stateDir, ctx.now(), ctx.emit, { readOnly: true });
  const access = await locateSystemctl(ctx.env, ctx.paths.layout);
  let systemd: SystemdStatus | undefined;
  let reason: string | undefined;
  if (!installed) reason = 'not installed';
  else if (!usable(access)) reason = unusableReason(access);
  else systemd = await systemdStatus(access, loc);
  return {
    installed,
    unitDir: loc.dir,
    timer: loc.timerPath,
    service: loc.servicePath,
    onCalendar: timerText === undefined ? undefined : readOnCalendar(timerText),
    systemd,
    reason,
    lastRun: store.snapshot().lastRun,
  };
}
