import type { Command } from 'commander';
import type { Context } from '../core/context.js';
import type { AdoptFlags } from '../commands/adopt.js';
import type { AddFlags } from '../commands/add.js';
import type { Invocation } from '../main.js';

/** Registers the onboarding commands (adopt, add). */
export function registerOnboardCommands(program: Command, inv: Invocation, ctx: () => Context): void {
  program
    .command('adopt')
    .description('take existing AppImages into management: write their recipes from their update information')
    .argument('[files...]', 'AppImages to adopt')
    .option('--scan <dir>', 'plan the adoption of every AppImage in DIR (acts only with --yes)')
    .option('--move', 'move each file into storage_dir under its recipe’s file name (default)')
    .option('--copy', 'copy each file into storage_dir and leave the original')
    .option('--in-place', 'leave each file where it is')
    .option('--name <name>', 'app name for a single FILE (default: from its desktop entry)')
    .option('--url <url>', 'the source of a single FILE: any URL `add` accepts (repository or download)')
    .option('--yes', 'with --scan: adopt what the plan shows')
    .option('--dry-run', 'show the plan only; write nothing')
    .action(async (files: string[], flags: AdoptFlags) => {
      const { adoptCommand } = await import('../commands/adopt.js');
      inv.setResult('adopt', await adoptCommand(ctx(), inv.output(), files, flags));
    });

  program
    .command('add')
    .description('write a recipe from a repository URL (forge) or a download URL (direct)')
    .argument('<url>', 'repository URL on the hub, the lab or Gitea/Forgejo, or a download URL')
    .option('--name <name>', 'app name (default: from the repository or file name)')
    .option('--install', 'then install the app (as `update NAME`)')
    .option('--dry-run', 'print the recipe only; write nothing')
    .action(async (url: string, flags: AddFlags) => {
      const { addCommand } = await import('../commands/add.js');
      inv.setResult('add', await addCommand(ctx(), inv.output(), url, flags, inv.setSink));
    });
}
