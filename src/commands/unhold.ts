import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { unholdApp } from '../app/rollback.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from '../cli/result.js';
import { termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';
import { assertKnownApps } from './known-apps.js';

/** `unhold APP...`: let `update` handle held apps again. */
export async function unholdCommand(ctx: Context, out: Output, names: string[]): Promise<CommandResult> {
  if (names.length === 0) throw new UsageError('USAGE', 'name at least one app to unhold');
  const results = await runLocked(
    ctx,
    out,
    'unhold',
    names,
    async (run, _entries, ws) => {
      assertKnownApps(names, ws, run.store);
      const r = names.map((name) => ({ name, was_held: unholdApp(run.store, name) }));
      if (r.some((x) => x.was_held)) await run.store.save();
      return r;
    },
    // Apps whose recipe is gone can still carry a hold in state.
    { selectFromState: true },
  );
  const lines = results.map((r) =>
    r.was_held
      ? `${out.c.green('unheld')} ${termText(r.name)}: the next update handles it again`
      : `${termText(r.name)} was not held`,
  );
  return { exitCode: 0, json: { command: 'unhold', apps: results }, human: lines.join('\n') };
}
