import type { Context } from '../../core/context.js';
import { checkApps } from '../../engine/check.js';
import { summarize } from '../../engine/outcome.js';
import type { Output } from '../output.js';
import { outcomeLine, summaryLine } from '../render-outcomes.js';
import type { CommandResult } from '../result.js';
import { noRecipesHint } from '../setup-hints.js';
import { runLocked } from './engine-run.js';

/** `check [APP...]`: latest versions for every app; downloads nothing. */
export async function checkCommand(ctx: Context, out: Output, names: string[]): Promise<CommandResult> {
  const started = Date.now();
  const outcomes = await runLocked(ctx, out, 'check', names, async (run, entries) => {
    const result = await checkApps(run, entries);
    await run.store.save();
    return result;
  });
  const summary = summarize(outcomes);
  const lines = outcomes.map((o) => outcomeLine(o, out));
  const hint = outcomes.length === 0 && names.length === 0 ? noRecipesHint(ctx.paths) : undefined;
  lines.push(hint ?? summaryLine(summary, 'check', [`${((Date.now() - started) / 1000).toFixed(1)}s`]));
  return {
    exitCode: summary.failed > 0 ? 1 : 0,
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
        ...(o.via_proxy !== undefined ? { via_proxy: o.via_proxy } : {}),
      })),
      summary,
      ...(hint ? { hint } : {}),
    },
    human: lines.join('\n'),
  };
}
