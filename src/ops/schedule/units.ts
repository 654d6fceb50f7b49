import { TOOL_DIR_NAME } from '../../config/paths.js';
import type { TimerSchedule } from './interval.js';

/** What the service runs. */
export interface ServiceCommand {
  /** Absolute path of the node binary. */
  node: string;
  /** Absolute path of the CLI script. */
  cli: string;
  /** Set when the config dir is not the default one. */
  configDir?: string | undefined;
}

/** The two unit files, by file name. */
export interface UnitFiles {
  serviceName: string;
  timerName: string;
  service: string;
  timer: string;
}

/**
 * Quotes one ExecStart argument for systemd: double quotes with C escapes, `%` doubled (specifiers)
 * and `$` doubled (variable expansion), so any path survives unchanged.
 */
export function systemdQuote(arg: string): string {
  const escaped = arg
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$');
  return `"${escaped}"`;
}

/** The argv of the scheduled run (what ExecStart executes). */
export function serviceArgv(cmd: ServiceCommand): string[] {
  return [cmd.node, cmd.cli, ...(cmd.configDir ? ['--config-dir', cmd.configDir] : []), '--quiet', 'update'];
}

/** Unit base name: `appimage-keeper`, or `appimage-keeper-<profile>` for a non-default config dir. */
export function unitBaseName(profile: string | undefined): string {
  return profile ? `${TOOL_DIR_NAME}-${profile}` : TOOL_DIR_NAME;
}

/** Renders the user service and timer. */
export function renderUnits(base: string, cmd: ServiceCommand, schedule: TimerSchedule): UnitFiles {
  const serviceName = `${base}.service`;
  const timerName = `${base}.timer`;
  const where = cmd.configDir ? ` (${cmd.configDir})` : '';
  const service = [
    '# Written by `appimage-keeper schedule install`; `appimage-keeper schedule remove` deletes it.',
    '[Unit]',
    `Description=Update AppImages with appimage-keeper${where}`,
    'Documentation=https://www.npmjs.com/package/appimage-keeper',
    '',
    '[Service]',
    'Type=oneshot',
    `ExecStart=${serviceArgv(cmd).map(systemdQuote).join(' ')}`,
    // A background job: yield the CPU to whatever the user is doing.
    'Nice=10',
    // Exit 1 means "an app failed" and is worth the failed state; 3 means another run held the lock.
    'SuccessExitStatus=3',
    '',
  ].join('\n');
  const timer = [
    '# Written by `appimage-keeper schedule install`; `appimage-keeper schedule remove` deletes it.',
    '[Unit]',
    `Description=Run appimage-keeper update ${schedule.label}${where}`,
    '',
    '[Timer]',
    `OnCalendar=${schedule.onCalendar}`,
    `RandomizedDelaySec=${schedule.randomizedDelaySec}`,
    // Catch up on a run missed while the machine was off.
    'Persistent=true',
    `Unit=${serviceName}`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
  return { serviceName, timerName, service, timer };
}

/** The `OnCalendar=` value of an installed timer file, if any. */
export function readOnCalendar(timerText: string): string | undefined {
  return /^OnCalendar=(.*)$/m.exec(timerText)?.[1]?.trim();
}
