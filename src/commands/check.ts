import type { Context } from '../core/context.js';
import { ExitCode } from '../core/errors.js';
import { checkApps } from '../app/check.js';
import { summarize, type AppOutcome, type Summary } from '../app/outcome.js';
import { interruptionExitCode } from '../cli/lock-scope.js';
import type { Output } from '../render/output.js';
import { outcomeLine, summaryLine } from '../render/render-outcomes.js';
import type { CommandResult } from '../cli/result.js';
import { noRecipesHint } from '../render/setup-hints.js';
import { runLocked } from './engine-run.js';

/** `check [APP...]`: latest versions for every app; downloads nothing. */
export async function checkCommand(
  ctx: Context,
  out: Output,
  names: string[],
  flags: { force?: boolean; exitCode?: boolean } = {},
): Promise<CommandResult> {
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
