import type { Command } from 'commander';
import type { Context } from '../core/context.js';
import type { RemoveFlags } from '../commands/remove.js';
import type { UpdateFlags } from '../commands/update.js';
import type { Invocation } from '../main.js';

/** Registers the commands that talk to the network and write state (check, update, remove). */
export function registerEngineCommands(program: Command, inv: Invocation, ctx: () => Context): void {
  program
    .command('check')
    .description('resolve the latest version of each app; download nothing')
    .argument('[apps...]', 'apps to check (default: all)')
    .option('--force', 'send requests even while a rate-limit window is open')
    .option('--exit-code', 'exit 10 when an update is available for an app that is not held')
    .action(async (apps: string[], flags: { force?: boolean; exitCode?: boolean }) => {
      const { checkCommand } = await import('../commands/check.js');
      inv.setResult('check', await checkCommand(ctx(), inv.output(), apps, flags));
    });

  program
    .command('update')
    .description('resolve, download, verify and install new versions')
    .argument('[apps...]', 'apps to update (default: all)')
    .option(
      '--force',
      'reinstall even when up to date; lifts a rollback hold and ignores open rate-limit windows',
    )
    .option('--dry-run', 'show what would be downloaded; write nothing')
    .option('--show-all', 'also list apps that are up to date')
    .option('--self', 'then update appimage-keeper itself (as `self-update`)')
    .action(async (apps: string[], flags: UpdateFlags) => {
      const { updateCommand } = await import('../commands/update.js');
      inv.setResult('update', await updateCommand(ctx(), inv.output(), apps, flags, inv.setSink));
    });

  program
    .command('remove')
    .description(
      'undo an install: file, desktop entry, icons, symlink; update skips the app until `update APP`',
    )
    .argument('[apps...]', 'apps to remove')
    .option('--purge', 'also delete the recipe and forget the app')
    .option('--orphans', 'remove installed apps whose recipe is gone, and leftover temp files')
    .action(async (apps: string[], flags: RemoveFlags) => {
      const { removeCommand } = await import('../commands/remove.js');
      inv.setResult('remove', await removeCommand(ctx(), inv.output(), apps, flags));
    });
}
