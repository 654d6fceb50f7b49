import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import type { RemoveOutcome } from '../app/remove.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';

/** Flags of `remove`. */
interface RemoveFlags {
  purge?: boolean;
  orphans?: boolean;
}

/** `remove APP... [--purge]` and `remove --orphans`: undo installs exactly as recorded. */
async function removeCommand(
  ctx: Context,
  out: Output,
  names: string[],
  flags: RemoveFlags,
): Promise<CommandResult> {
  if (!flags.orphans && names.length === 0) {
    throw new UsageError('USAGE', 'name at least one app to remove, or pass --orphans');
  }
  const { assertKnownApps } = await import('./known-apps.js');
  const { managedStorageDirs } = await import('../app/managed-dirs.js');
  const { recoverInstall } = await import('../app/recover-install.js');
  const { forgetRecipelessRemoved, orphanNames, removeApp, removeStrayTemps } =
    await import('../app/remove.js');
  const { outcomes, temps } = await runLocked(
    ctx,
    out,
    'remove',
    names,
    async (run, _entries, ws) => {
      assertKnownApps(names, ws, run.store);
      const targets = flags.orphans ? [...new Set([...names, ...orphanNames(ws, run.store)])] : names;
      const results: RemoveOutcome[] = [];
      // An install a kill left unrecorded is recorded first, so its file is removed too, and the
      // stray-temp sweep below cannot take a kept version that is still waiting under a temp name.
      const pending = flags.orphans ? [...new Set([...targets, ...ws.apps.map((a) => a.name)])] : targets;
      for (const name of pending) {
        const recipe = ws.apps.find((a) => a.name === name);
        const strategy =
          run.store.app(name)?.strategy ?? (recipe?.ok ? recipe.settings.strategy.strategy : 'unknown');
        await recoverInstall(run.store, ctx.paths.stateDir, name, strategy, managedStorageDirs(ws));
      }
      const now = run.ctx.now().toISOString();
      for (const name of targets)
        results.push(await removeApp(name, ws, run.store, { purge: flags.purge === true, now }));
      if (flags.orphans) forgetRecipelessRemoved(ws, run.store);
      const strays = flags.orphans ? await removeStrayTemps(ws) : [];
      await run.store.save();
      return { outcomes: results, temps: strays };
    },
    { selectFromState: true },
  );
  const { c } = out;
  const lines: string[] = [];
  for (const o of outcomes) {
    const head =
      o.status === 'incomplete'
        ? c.red('incomplete')
        : o.status === 'removed'
          ? c.green('removed')
          : c.dim('not installed');
    lines.push(
      `${head} ${c.bold(termText(o.name))}${o.status === 'not_installed' ? c.dim('  (nothing to remove)') : ''}`,
    );
    for (const p of o.removed) lines.push(c.dim(`  removed ${termPath(p)}`));
    for (const p of o.missing) lines.push(c.dim(`  already gone: ${termPath(p)}`));
    for (const p of o.skipped) lines.push(c.yellow(`  left alone (not ours): ${termPath(p)}`));
    for (const p of o.restored) lines.push(c.dim(`  put back ${termPath(p)} (retired by adopt)`));
    for (const p of o.retired_kept)
      lines.push(c.yellow(`  kept ${termPath(p)}: a file is now where it was retired from`));
    for (const e of o.errors) lines.push(c.red(`  error: ${termMessage(e)}`));
    if (o.purged_recipe) lines.push(c.dim(`  purged recipe ${termPath(o.purged_recipe)}`));
  }
  for (const t of temps) lines.push(c.dim(`removed leftover ${termPath(t)}`));
  if (flags.orphans && outcomes.length === 0 && temps.length === 0) lines.push('no orphans found');
  const failed = outcomes.filter((o) => o.status === 'incomplete').length;
  return {
    exitCode: failed ? 1 : 0,
    json: { command: 'remove', apps: outcomes, temp_files_removed: temps },
    human: lines.join('\n'),
  };
}

/** `remove`: undo installs exactly as recorded. */
export const remove = defineCommand<[string[]], RemoveFlags>({
  name: 'remove',
  summary: 'undo an install: file, desktop entry, icons, symlink; update skips the app until `update APP`',
  arguments: [{ name: '[apps...]', description: 'apps to remove' }],
  flags: [
    { flags: '--purge', description: 'also delete the recipe and forget the app' },
    {
      flags: '--orphans',
      description: 'remove installed apps whose recipe is gone, and leftover temp files',
    },
  ],
  examples: [
    ['appimage-keeper remove obsidian', 'uninstall an app, keep its recipe'],
    ['appimage-keeper remove --purge obsidian', 'uninstall it and delete the recipe'],
    ['appimage-keeper remove --orphans', 'remove apps whose recipe is gone'],
  ],
  handler: ({ ctx, output, args: [apps], flags }) => removeCommand(ctx(), output(), apps, flags),
});
