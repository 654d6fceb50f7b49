import { Argument, type Command } from 'commander';
import type { Context } from '../core/context.js';
import { REPOSITORY } from '../core/version.js';
import type { DoctorFlags } from '../commands/doctor.js';
import type { ScheduleFlags } from '../commands/schedule.js';
import type { SelfUpdateFlags } from '../commands/self-update.js';
import type { Invocation } from '../main.js';

/** Registers the unattended-operation commands (schedule, doctor, rollback, unhold, self-update). */
export function registerOpsCommands(program: Command, inv: Invocation, ctx: () => Context): void {
  program
    .command('schedule')
    .description('install, remove or show the systemd user timer that runs `update` unattended')
    .addArgument(
      new Argument('<action>', 'install, remove or status').choices(['install', 'remove', 'status']),
    )
    .option('--every <interval>', 'daily (default), weekly, hourly, 6h, 30m, or an OnCalendar= expression')
    .action(async (action: string, flags: ScheduleFlags) => {
      const { scheduleCommand } = await import('../commands/schedule.js');
      inv.setResult('schedule', await scheduleCommand(ctx(), inv.output(), action, flags));
    });

  program
    .command('doctor')
    .description('check directories, config, state, installed files and tools; --online adds the hub API')
    .option('--online', 'also check API reachability, the token and the rate-limit budget')
    .action(async (flags: DoctorFlags) => {
      const { doctorCommand } = await import('../commands/doctor.js');
      inv.setResult('doctor', await doctorCommand(ctx(), inv.output(), flags));
    });

  program
    .command('rollback')
    .description('restore the previous version of an app (and hold it until `unhold` or `update --force`)')
    .argument('<app>', 'app to roll back')
    .action(async (app: string) => {
      const { rollbackCommand } = await import('../commands/rollback.js');
      inv.setResult('rollback', await rollbackCommand(ctx(), inv.output(), app));
    });

  program
    .command('unhold')
    .description('let `update` handle apps held after a rollback again')
    .argument('<apps...>', 'apps to release')
    .action(async (apps: string[]) => {
      const { unholdCommand } = await import('../commands/unhold.js');
      inv.setResult('unhold', await unholdCommand(ctx(), inv.output(), apps));
    });

  program
    .command('self-update')
    .description('update appimage-keeper itself (the standalone executable; npm installs get the command)')
    .option('--repository <url>', `release repository to update from (default: ${REPOSITORY})`)
    .option('--force', 'reinstall even when the latest release is not newer')
    .option(
      '--insecure',
      'install an executable no attestation of our release workflow vouches for (prints a warning)',
    )
    .option(
      '--rollback',
      'put back the executable the last self-update replaced (kept as .previous beside it)',
    )
    .action(async (flags: SelfUpdateFlags) => {
      const { selfUpdateCommand } = await import('../commands/self-update.js');
      inv.setResult('self-update', await selfUpdateCommand(ctx(), inv.output(), flags, inv.setSink));
    });
}
