import type { Context } from '../context/context.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termMessage } from '../render/terminal-text.js';
import { countOf } from '../core/plural.js';
import { processFacts } from './process-facts.js';

/** Flags of `doctor`. */
interface DoctorFlags {
  online?: boolean;
}

/** `doctor [--online]`: one line per check with a fix hint; exit 1 when a check fails. */
async function doctorCommand(ctx: Context, out: Output, flags: DoctorFlags): Promise<CommandResult> {
  const { runDoctor } = await import('../system/doctor/run-doctor.js');
  const { sea, execPath } = processFacts();
  const runtime = { version: process.version, sea, execPath };
  const checks = await runDoctor(ctx, { online: flags.online === true, runtime });
  const { c } = out;
  const label = { ok: c.green('ok  '), warn: c.yellow('warn'), fail: c.red('FAIL') } as const;
  const lines: string[] = [];
  for (const ch of checks) {
    // Messages quote state, desktop entries and server answers: escape them. Multi-line hints (an
    // AppArmor profile) are ours line by line and keep the hint column.
    lines.push(`${label[ch.status]}  ${ch.id.padEnd(16)} ${termMessage(ch.message)}`);
    const hint = ch.hint
      ?.split('\n')
      .map((line) => termMessage(line))
      .join(`\n${''.padEnd(27)}`);
    if (hint && ch.status !== 'ok') lines.push(c.dim(`      ${''.padEnd(16)} fix: ${hint}`));
  }
  const failed = checks.filter((ch) => ch.status === 'fail').length;
  const warned = checks.filter((ch) => ch.status === 'warn').length;
  lines.push(
    `${countOf(checks.length, 'check')}: ${checks.length - failed - warned} ok, ${countOf(warned, 'warning')}, ${failed} failed`,
  );
  return {
    exitCode: failed ? 1 : 0,
    json: { command: 'doctor', online: flags.online === true, checks },
    human: lines.join('\n'),
  };
}

/** `doctor`: directories, config, state, installed files and tools checked. */
export const doctor = defineCommand<[], DoctorFlags>({
  name: 'doctor',
  summary: 'check directories, config, state, installed files and tools; --online adds the hub API',
  arguments: [],
  flags: [
    { flags: '--online', description: 'also check API reachability, the token and the rate-limit budget' },
  ],
  examples: [
    ['appimage-keeper doctor', 'check directories, config, state and tools'],
    ['appimage-keeper doctor --online', 'also check the hub API, the token and the rate limit'],
  ],
  handler: ({ ctx, output, flags }) => doctorCommand(ctx(), output(), flags),
});
