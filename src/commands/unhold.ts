import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';

/** `unhold APP...`: let `update` handle held apps again. */
async function unholdCommand(ctx: Context, out: Output, names: string[]): Promise<CommandResult> {
  if (names.length === 0) throw new UsageError('USAGE', 'name at least one app to unhold');
  const { unholdApp } = await import('../app/rollback.js');
  const { assertKnownApps } = await import('./known-apps.js');
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

/** `unhold APP...`: held apps back to `update`. */
export const unhold = defineCommand<[string[]], Record<string, never>>({
  name: 'unhold',
  summary: 'let `update` handle apps held after a rollback again',
  arguments: [{ name: '<apps...>', description: 'apps to release' }],
  flags: [],
  examples: [
    ['appimage-keeper unhold obsidian', 'release one app held after a rollback'],
    ['appimage-keeper update --force obsidian', 'or reinstall the latest, which also releases it'],
  ],
  handler: ({ ctx, output, args: [apps] }) => unholdCommand(ctx(), output(), apps),
});
