import { CommanderError } from 'commander';
import { ExitCode } from './core/errors.js';
import type { CliModel } from './commands/cli-model.js';
import { buildProgram, modelOf } from './cli/program.js';
import { usageErrorJson } from './cli/root-action.js';
import { CliRun, type GlobalFlagValues } from './cli/command-run.js';
import { createOutput } from './render/output.js';
import type { GlobalOptions } from './cli/runtime.js';
import type { CliIo, Invocation } from './cli/invocation.js';

export type { CliIo } from './cli/invocation.js';

/** The program with every command registered and no invocation behind it (docs, man page). */
export function describeProgram(): CliModel {
  const io: CliIo = { argv: [], env: {}, stdout: process.stdout, stderr: process.stderr };
  const globals: GlobalOptions = { json: false, color: false, quiet: false, verbose: false, layout: 'user' };
  const inv: Invocation = {
    io,
    globals: () => globals,
    output: () => createOutput(globals, io.stdout, io.stderr, io.env),
    emit: () => undefined,
    setSink: () => undefined,
    setResult: () => undefined,
  };
  return modelOf(buildProgram(inv));
}

/** Runs the CLI and returns its exit code; the single error boundary of the tool. */
export async function runCli(io: CliIo): Promise<number> {
  const run = new CliRun(io);
  const program = buildProgram(run.inv);
  program.hook('preAction', async (_this, action) => {
    await run.begin(program.opts<GlobalFlagValues>(), action === program ? 'appimage-keeper' : action.name());
  });
  // Usage errors inside a subcommand's own flags happen before preAction: name the command anyway.
  program.hook('preSubcommand', (_this, sub) => {
    run.commandName = sub.name();
  });
  try {
    await program.parseAsync(io.argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version succeed; help shown because the command line was incomplete does not.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
      if (err.code === 'commander.help' && err.exitCode === 0) return ExitCode.ok;
      if (run.globals.json)
        io.stdout.write(`${JSON.stringify({ command: run.commandName, error: usageErrorJson(err) })}\n`);
      return ExitCode.usage;
    }
    return run.failed(err);
  }
  return run.finished();
}
