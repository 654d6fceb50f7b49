import type { Context } from '../core/context.js';
import { ExitCode } from '../core/errors.js';
import type { AppOutcome, Summary } from '../app/outcome.js';
import type { Output } from '../render/output.js';
import { outcomeLine, summaryLine } from '../render/render-outcomes.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { noRecipesHint } from '../render/setup-hints.js';
import { runLocked } from './engine-run.js';

/** Flags of `check`. */
interface CheckFlags {
  force?: boolean;
  exitCode?: boolean;
}

/** `check [APP...]`: latest versions for every app; downloads nothing. */
async function checkCommand(
  ctx: Context,
  out: Output,
  names: string[],
  flags: CheckFlags,
): Promise<CommandResult> {
  const { checkApps } = await import('../app/check.js');
  const { summarize } = await import('../app/outcome.js');
  const { interruptionExitCode } = await import('./lock-scope.js');
  const started = Date.now();
  let interruptedExit: number | undefined;
  const outcomes = await runLocked(ctx, out, 'check', names, async (run, entries) => {
    const result = await checkApps(run, entries, names, { force: flags.force === true });
    await run.store.save();
    interruptedExit = interruptionExitCode(run.signal);
    return result;
  });
  const summary = summarize(outcomes);
  const lines = outcomes.map((o) => outcomeLine(o, out));
  const hint = outcomes.length === 0 && names.length === 0 ? noRecipesHint(ctx.paths) : undefined;
  lines.push(hint ?? summaryLine(summary, 'check', [`${((Date.now() - started) / 1000).toFixed(1)}s`]));
  return {
    exitCode: interruptedExit ?? checkExitCode(outcomes, summary, flags.exitCode === true),
    json: {
      command: 'check',
      apps: outcomes.map((o) => ({
        name: o.name,
        status: o.status,
        installed_version: o.from_version,
        latest_version: o.to_version,
        path: o.path,
        url: o.url ?? null,
        error: o.error,
        retry_at: o.retry_at,
        ...(o.eligible_at !== undefined ? { eligible_at: o.eligible_at } : {}),
        ...((o.status === 'skipped' || o.status === 'deferred') && o.reason ? { reason: o.reason } : {}),
        ...(o.via_proxy !== undefined ? { via_proxy: o.via_proxy } : {}),
        ...(o.held ? { held: true } : {}),
      })),
      summary: summaryJson(summary),
      ...(hint ? { hint } : {}),
    },
    human: lines.join('\n'),
  };
}

/**
 * A failure wins (1); with `--exit-code`, an update that `update` would install gives 10. Held and
 * deferred apps do not count: `update` leaves them alone until `unhold` or the cooldown ends.
 */
function checkExitCode(outcomes: readonly AppOutcome[], summary: Summary, exitCode: boolean): number {
  if (summary.failed > 0) return ExitCode.appFailed;
  const pending = outcomes.some((o) => o.status === 'update_available' && !o.held);
  return exitCode && pending ? ExitCode.updatesAvailable : ExitCode.ok;
}

/** The JSON summary: `interrupted` appears only when an app was interrupted. */
function summaryJson(summary: Summary): Record<string, number> {
  const { interrupted, ...rest } = summary;
  return interrupted > 0 ? { ...rest, interrupted } : rest;
}

/** `check`: the latest version of each app, nothing downloaded. */
export const check = defineCommand<[string[]], CheckFlags>({
  name: 'check',
  summary: 'resolve the latest version of each app; download nothing',
  arguments: [{ name: '[apps...]', description: 'apps to check (default: all)' }],
  flags: [
    { flags: '--force', description: 'send requests even while a rate-limit window is open' },
    {
      flags: '--exit-code',
      description: 'exit 10 when an update is available for an app that is not held',
    },
  ],
  examples: [
    ['appimage-keeper check', 'which apps have a newer release'],
    ['appimage-keeper check obsidian', 'check one app'],
    ['appimage-keeper check --exit-code', 'exit 10 when an update is available (for scripts)'],
  ],
  handler: ({ ctx, output, args: [apps], flags }) => checkCommand(ctx(), output(), apps, flags),
});
