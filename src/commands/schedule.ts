import type { CliModel } from './cli-model.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import type { ScheduleChange, ScheduleStatus } from '../system/schedule/schedule.js';
import { INTERVAL_SUGGESTIONS } from '../system/schedule/interval.js';
import type { ProcessFacts } from '../system/self-update/install-kind.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { shellQuote } from '../core/shell-quote.js';
import { termMessage, termText } from '../render/terminal-text.js';

/** Flags of `schedule`. */
interface ScheduleFlags {
  every?: string;
  /** The timer runs `update --locked`. */
  locked?: boolean;
}

const PROGRAM_KIND_TEXT = {
  standalone: 'the standalone executable',
  path: 'found on PATH',
  node: 'this node and script',
} as const;

function changeLines(out: Output, verb: string, change: ScheduleChange): string[] {
  const { c } = out;
  const lines = change.files.map((f) => `${verb} ${f}`);
  if (change.commands.length === 0) return lines;
  if (change.applied) {
    lines.push(...change.commands.map((cmd) => c.dim(`ran: ${cmd}`)));
  } else {
    const system = change.layout === 'system';
    lines.push(
      c.yellow(
        `systemctl ${system ? '--system' : '--user'} was not run: ${termMessage(change.reason ?? 'unavailable')}.`,
      ),
      system ? 'Run these as root on a machine that runs systemd:' : 'Run these in your desktop session:',
      ...change.commands.map((cmd) => `  ${cmd}`),
    );
  }
  return lines;
}

/**
 * The result of `install` or `remove`: both report the unit files and the systemctl commands the
 * same way; `details` (install's timer settings) sits between the files and the commands.
 */
function changeResult(
  action: string,
  change: ScheduleChange,
  lines: string[],
  details: Record<string, unknown> = {},
): CommandResult {
  return {
    exitCode: 0,
    json: {
      command: 'schedule',
      action,
      unit_dir: change.unitDir,
      files: change.files,
      ...details,
      applied: change.applied,
      commands: change.commands,
      reason: change.reason ?? null,
    },
    human: lines.join('\n'),
  };
}

function statusLines(out: Output, s: ScheduleStatus): string[] {
  const { c } = out;
  if (!s.installed) {
    return [`not installed (no ${s.timer}); set it up with: appimage-keeper schedule install`];
  }
  const lines = [`timer      ${s.timer}${s.onCalendar ? ` (OnCalendar=${s.onCalendar})` : ''}`];
  if (s.systemd) {
    const d = s.systemd;
    lines.push(`systemd    ${d.active ?? 'unknown'}, ${d.enabled ?? 'unknown'}`);
    lines.push(`next run   ${d.nextRun ?? '-'}`);
    const result = d.lastResult
      ? ` (${d.lastResult}${d.lastExitStatus ? `, exit status ${d.lastExitStatus}` : ''})`
      : '';
    lines.push(`last run   ${d.lastRun ?? 'never'}${result}`);
  } else {
    lines.push(c.dim(`systemd    not asked: ${termMessage(s.reason ?? 'unavailable')}`));
  }
  const r = s.lastRun;
  if (r) {
    const counts = Object.entries(r.summary)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k.replaceAll('_', ' ')}`)
      .join(', ');
    lines.push(`outcome    ${r.command} finished ${r.finishedAt}: ${counts || 'nothing selected'}`);
    if (r.updated.length) lines.push(`  updated: ${r.updated.map((n) => termText(n)).join(', ')}`);
    if (r.failed.length) lines.push(c.red(`  failed: ${r.failed.map((n) => termText(n)).join(', ')}`));
  } else {
    lines.push('outcome    no update recorded yet');
  }
  return lines;
}

/** `schedule install|remove|status`: the systemd user timer that runs `update` unattended. */
async function scheduleCommand(
  ctx: Context,
  out: Output,
  action: string,
  flags: ScheduleFlags,
  model: CliModel,
): Promise<CommandResult> {
  if (flags.every !== undefined && action !== 'install') {
    throw new UsageError('USAGE', '--every only applies to `schedule install`');
  }
  if (flags.locked && action !== 'install') {
    throw new UsageError('USAGE', '--locked only applies to `schedule install`');
  }
  const { installSchedule, removeSchedule, scheduleStatus } = await import('../system/schedule/schedule.js');
  const { processFacts } = await import('./process-facts.js');
  const facts: ProcessFacts = processFacts();
  if (action === 'install') {
    const { renderManPage } = await import('./man-page.js');
    const manPage = facts.sea ? renderManPage(model) : undefined;
    const r = await installSchedule(ctx, {
      every: flags.every,
      facts,
      locked: flags.locked === true,
      manPage,
    });
    const lines = changeLines(out, 'wrote', r);
    lines.splice(
      r.files.length,
      0,
      `runs ${r.schedule.label} (OnCalendar=${r.schedule.onCalendar}, up to ${r.schedule.randomizedDelaySec}s random delay, catches up after downtime)`,
      `command ${r.execStart.map((a) => termText(a)).join(' ')} (${PROGRAM_KIND_TEXT[r.program.kind]})`,
      ...r.program.warnings.map((w) => out.c.yellow(`warning: ${termMessage(w)}`)),
      ...(r.program.hint ? [`  hint: ${termMessage(r.program.hint)}`] : []),
    );
    if (r.proxy.written.length > 0) lines.push(`the timer gets the shell's ${r.proxy.written.join(', ')}`);
    if (r.proxy.withheld.length > 0) {
      lines.push(
        out.c.yellow(
          `warning: ${r.proxy.withheld.join(', ')} holds a password and is not written into the unit; set https_proxy/http_proxy in config.yml so the timer uses the proxy`,
        ),
      );
    }
    if (r.linger.enabled === false && r.linger.user !== undefined) {
      lines.push(
        `the timer runs only while you are logged in; to run it while logged out too: loginctl enable-linger ${termText(shellQuote(r.linger.user))}`,
      );
    }
    return changeResult(action, r, lines, {
      on_calendar: r.schedule.onCalendar,
      randomized_delay_sec: r.schedule.randomizedDelaySec,
      exec_start: r.execStart,
      program_kind: r.program.kind,
      environment_path: r.program.unitPath ?? null,
      warnings: r.program.warnings,
      hint: r.program.hint ?? null,
      linger: r.linger.enabled ?? null,
      proxy_environment: r.proxy.written,
      proxy_withheld: r.proxy.withheld,
    });
  }
  if (action === 'remove') {
    const r = await removeSchedule(ctx);
    const lines = r.files.length
      ? changeLines(out, 'removed', r)
      : ['no schedule installed; nothing to remove'];
    return changeResult(action, r, lines);
  }
  if (action === 'status') {
    const s = await scheduleStatus(ctx);
    return {
      exitCode: 0,
      json: {
        command: 'schedule',
        action,
        installed: s.installed,
        unit_dir: s.unitDir,
        timer: s.timer,
        service: s.service,
        on_calendar: s.onCalendar ?? null,
        systemd: s.systemd
          ? {
              active: s.systemd.active ?? null,
              enabled: s.systemd.enabled ?? null,
              next_run: s.systemd.nextRun ?? null,
              last_run: s.systemd.lastRun ?? null,
              last_result: s.systemd.lastResult ?? null,
              last_exit_status: s.systemd.lastExitStatus ?? null,
            }
          : null,
        reason: s.reason ?? null,
        last_run: s.lastRun ?? null,
      },
      human: statusLines(out, s).join('\n'),
    };
  }
  throw new UsageError('USAGE', `unknown schedule action "${action}"`, {
    hint: 'use install, remove or status',
  });
}

/** `schedule`: the systemd user timer that runs `update`. */
export const schedule = defineCommand<[string], ScheduleFlags>({
  name: 'schedule',
  summary: 'install, remove or show the systemd user timer that runs `update` unattended',
  arguments: [
    { name: '<action>', description: 'install, remove or status', choices: ['install', 'remove', 'status'] },
  ],
  flags: [
    {
      flags: '--every <interval>',
      description: 'daily (default), weekly, hourly, 6h, 30m, or an OnCalendar= expression',
      values: INTERVAL_SUGGESTIONS,
    },
    {
      flags: '--locked',
      description: 'the timer runs `update --locked`: it installs what the lock file pins',
    },
  ],
  examples: [
    ['appimage-keeper schedule install', 'run update daily'],
    ['appimage-keeper schedule install --locked', 'a fleet machine: follow appimage-keeper.lock'],
    ['appimage-keeper schedule status', 'show the timer and the last run'],
  ],
  handler: ({ ctx, output, args: [action], flags, model }) =>
    scheduleCommand(ctx(), output(), action, flags, model()),
});
