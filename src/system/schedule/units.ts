import { TOOL_DIR_NAME } from '../../config/paths.js';
import { REPOSITORY } from '../../core/version.js';
import { everyFor, type TimerSchedule } from './interval.js';
import { UNIT_HEADER } from './service-file.js';
import { systemdEnvQuote, systemdQuote } from './unit-words.js';

/** What the service runs. */
export interface ServiceCommand {
  /** The program part of ExecStart: the standalone executable, a launcher, or node and the CLI script. */
  program: readonly string[];
  /** `Environment=PATH=` of the service, when the program needs one. */
  unitPath?: string | undefined;
  /** Set when the config dir is not the default one. */
  configDir?: string | undefined;
  /** The system layout: the run gets `--system` and the units are the system manager's. */
  system?: boolean | undefined;
  /** Run `update --locked` (a fleet machine following the lock file). */
  locked?: boolean | undefined;
  /** The shell's proxy variables without credentials (see proxy-environment.ts). */
  proxyEnv?: Record<string, string> | undefined;
}

/** The two unit files, by file name. */
export interface UnitFiles {
  serviceName: string;
  timerName: string;
  service: string;
  timer: string;
}

/** The argv of the scheduled run (what ExecStart executes). */
export function serviceArgv(cmd: ServiceCommand): string[] {
  return [
    ...cmd.program,
    ...(cmd.system ? ['--system'] : []),
    ...(cmd.configDir ? ['--config-dir', cmd.configDir] : []),
    '--quiet',
    'update',
    ...(cmd.locked ? ['--locked'] : []),
  ];
}

/** Unit base name: `appimage-keeper`, or `appimage-keeper-<profile>` for a non-default config dir. */
export function unitBaseName(profile: string | undefined): string {
  return profile ? `${TOOL_DIR_NAME}-${profile}` : TOOL_DIR_NAME;
}

/** Renders the service and timer (the user manager's, or the system manager's for `cmd.system`). */
export function renderUnits(base: string, cmd: ServiceCommand, schedule: TimerSchedule): UnitFiles {
  const serviceName = `${base}.service`;
  const timerName = `${base}.timer`;
  const where = cmd.configDir ? ` (${cmd.configDir})` : '';
  const service = [
    UNIT_HEADER,
    '[Unit]',
    `Description=Update AppImages with appimage-keeper${where}`,
    // The npm page answers 404 until the package is published; the man page ships with every install.
    `Documentation=man:${TOOL_DIR_NAME}(1)`,
    `Documentation=${REPOSITORY}/blob/main/docs/unattended.md`,
    '',
    '[Service]',
    'Type=oneshot',
    // The user manager does not see the shell's PATH; a script launcher needs it for its interpreter.
    ...(cmd.unitPath ? [`Environment=${systemdEnvQuote(`PATH=${cmd.unitPath}`)}`] : []),
    // Nor the shell's proxy: the run must reach the network the same way the shell does.
    ...Object.entries(cmd.proxyEnv ?? {}).map(([k, v]) => `Environment=${systemdEnvQuote(`${k}=${v}`)}`),
    `ExecStart=${serviceArgv(cmd).map(systemdQuote).join(' ')}`,
    // A background job: yield the CPU to whatever the user is doing.
    'Nice=10',
    // Exit 1 means "an app failed" and is worth the failed state; 3 means another run held the lock,
    // 75 that the machine was offline (the next firing tries again).
    'SuccessExitStatus=3 75',
    '',
  ].join('\n');
  const timer = [
    UNIT_HEADER,
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

/** The `--every` that writes an installed timer's `OnCalendar=` again (undefined: the default, daily). */
export function everyOfTimer(timerText: string): string | undefined {
  const onCalendar = readOnCalendar(timerText);
  return onCalendar ? everyFor(onCalendar) : undefined;
}
