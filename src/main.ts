import { CommanderError } from 'commander';
import { ExitCode, KeeperError, toKeeperError } from './core/errors.js';
import type { EventSink } from './core/events.js';
import type { CliModel } from './commands/cli-model.js';
import { buildProgram, modelOf } from './cli/program.js';
import { usageErrorJson } from './cli/root-action.js';
import { assertConfigDir } from './render/setup-hints.js';
import { resolvePaths } from './config/paths.js';
import {
  effectiveUid,
  assertRootOnlyConfig,
  enterSystemMode,
  requestedLayout,
  rootWithoutSystemNotice,
} from './cli/system-mode.js';
import { createOutput, renderEvent, type Output } from './render/output.js';
import { errorJson, errorText } from './render/render-error.js';
import type { CommandResult } from './commands/result.js';
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
  let output: Output | undefined;
  let globals: GlobalOptions = {
    json: io.argv.includes('--json'),
    color: true,
    quiet: false,
    verbose: false,
    layout: 'user',
  };
  let result: CommandResult | undefined;
  let commandName = 'appimage-keeper';
  let sink: EventSink | undefined;
  const getOutput = (): Output => {
    output ??= createOutput(
      { json: globals.json, quiet: globals.quiet, verbose: globals.verbose, color: globals.color },
      io.stdout,
      io.stderr,
      io.env,
    );
    return output;
  };
  const inv: Invocation = {
    io,
    globals: () => globals,
    output: getOutput,
    emit: (event) => (sink ? sink(event) : renderEvent(getOutput(), event)),
    setSink: (s) => {
      sink = s;
    },
    setResult: (name, r) => {
      commandName = name;
      result = r;
    },
  };
  const program = buildProgram(inv);
  program.hook('preAction', async (_this, action) => {
    const o = program.opts<{
      configDir?: string;
      system?: boolean;
      json?: boolean;
      color: boolean;
      quiet?: boolean;
      verbose?: boolean;
    }>();
    globals = {
      configDir: o.configDir,
      json: o.json === true,
      color: o.color,
      quiet: o.quiet === true,
      verbose: o.verbose === true,
      layout: 'user',
    };
    commandName = action === program ? 'appimage-keeper' : action.name();
    globals.layout = requestedLayout(o.system === true, io.env);
    const uid = effectiveUid();
    if (globals.layout === 'system') enterSystemMode(uid);
    const paths = resolvePaths(io.env, globals.configDir, globals.layout);
    await assertConfigDir(paths, globals.configDir !== undefined, commandName);
    await assertRootOnlyConfig(paths, commandName);
    // --quiet would hide it: keep it for a run that shows warnings.
    const notice = globals.quiet ? undefined : await rootWithoutSystemNotice(paths, uid, commandName);
    if (notice) getOutput().warn(notice);
  });
  // Usage errors inside a subcommand's own flags happen before preAction: name the command anyway.
  program.hook('preSubcommand', (_this, sub) => {
    commandName = sub.name();
  });
  try {
    await program.parseAsync(io.argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version succeed; help shown because the command line was incomplete does not.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.ok;
      if (err.code === 'commander.help' && err.exitCode === 0) return ExitCode.ok;
      if (globals.json)
        io.stdout.write(`${JSON.stringify({ command: commandName, error: usageErrorJson(err) })}\n`);
      return ExitCode.usage;
    }
    const kerr = err instanceof KeeperError ? err : toKeeperError(err);
    const out = getOutput();
    if (globals.json) {
      out.out(JSON.stringify({ command: commandName, error: errorJson(kerr) }));
    } else {
      out.err(`${out.ce.red('error:')} ${errorText(kerr)}`);
      if (globals.verbose && !(err instanceof KeeperError) && err instanceof Error && err.stack)
        out.err(err.stack);
    }
    return kerr.exitCode;
  }
  if (!result) return ExitCode.usage;
  const out = getOutput();
  if (globals.json) out.out(JSON.stringify(result.json));
  else if (result.human) out.out(result.human);
  return result.exitCode;
}
