import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import type { RollbackResult } from '../app/rollback.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';

/** `rollback APP`: swap in the kept previous version, restore its desktop entry, and hold the app. */
async function rollbackCommand(ctx: Context, out: Output, name: string): Promise<CommandResult> {
  const { managedStorageDirs } = await import('../app/managed-dirs.js');
  const { recoverInstall } = await import('../app/recover-install.js');
  const { rollbackApp } = await import('../app/rollback.js');
  const result: RollbackResult = await runLocked(ctx, out, 'rollback', [name], async (run, entries) => {
    const entry = entries[0];
    if (!entry) throw new UsageError('USAGE', 'name the app to roll back');
    if (!entry.ok) throw entry.error;
    // An install a kill left unrecorded is finished first, so the swap starts from what is on disk.
    await recoverInstall(
      run.store,
      ctx.paths.stateDir,
      entry.name,
      entry.settings.strategy.strategy,
      managedStorageDirs(run.ws),
    );
    const r = await rollbackApp(run, entry.settings);
    await run.store.save();
    return r;
  });
  const { c } = out;
  // Versions are forge tags and the paths come from state: escape them.
  const app = termText(result.name);
  const from = termText(result.from_version);
  const to = termText(result.to_version);
  const lines = [`${c.green('rolled back')} ${c.bold(app)} ${from} → ${to}  ${termPath(result.path)}`];
  if (result.desktop_entry) lines.push(c.dim(`  desktop entry ${termPath(result.desktop_entry)}`));
  if (result.previous_path)
    lines.push(c.dim(`  ${from} kept at ${termPath(result.previous_path)} (rollback again to return)`));
  for (const w of result.warnings) lines.push(c.yellow(`  warning: ${termMessage(w)}`));
  lines.push(
    `  held: update skips ${app} until \`appimage-keeper unhold ${app}\` or \`update ${app} --force\``,
  );
  return { exitCode: 0, json: { command: 'rollback', ...result }, human: lines.join('\n') };
}

/** `rollback APP`: the previous version back, held. */
export const rollback = defineCommand<[string], Record<string, never>>({
  name: 'rollback',
  summary: 'restore the previous version of an app (and hold it until `unhold` or `update --force`)',
  arguments: [{ name: '<app>', description: 'app to roll back' }],
  flags: [],
  examples: [
    ['appimage-keeper rollback obsidian', 'restore the previous version and hold it'],
    ['appimage-keeper unhold obsidian', 'let update handle it again'],
  ],
  handler: ({ ctx, output, args: [app] }) => rollbackCommand(ctx(), output(), app),
});
