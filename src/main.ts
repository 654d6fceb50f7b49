import { Argument, Command, CommanderError, Option } from 'commander';
import { ExitCode, KeeperError, toKeeperError } from './core/errors.js';
import type { EventSink, KeeperEvent } from './core/events.js';
import { VERSION } from './core/version.js';
import { describeCli, type CliModel } from './cli/cli-model.js';
import { completionCommand } from './commands/completion.js';
import { finishHelp } from './cli/help-examples.js';
import { attachRootAction, usageErrorJson } from './cli/root-action.js';
import { assertConfigDir } from './render/setup-hints.js';
import { resolvePaths } from './config/paths.js';
import {
  effectiveUid,
  assertRootOnlyConfig,
  enterSystemMode,
  requestedLayout,
  rootWithoutSystemNotice,
} from './cli/system-mode.js';
import { initCommand, parseStrategyFlag, type InitOptions } from './commands/init.js';
import { listCommand } from './commands/list.js';
import { schemaCommand } from './commands/schema.js';
import { createOutput, renderEvent, type Output } from './render/output.js';
import { errorJson, errorText } from './render/render-error.js';
import { guardTerminal } from './render/terminal-text.js';
import type { CommandResult } from './cli/result.js';
import { createContext, type GlobalOptions } from './cli/runtime.js';
import { registerEngineCommands } from './cli/register-engine.js';
import { registerOnboardCommands } from './cli/register-onboard.js';
import { registerOpsCommands } from './cli/register-ops.js';

/** Streams and environment of one CLI invocation (tests pass their own). */
export interface CliIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** For interactive questions (`edit` offering to reopen); absent means not interactive. */
  stdin?: NodeJS.ReadableStream | undefined;
}

/** Per-invocation plumbing shared by command actions. */
export interface Invocation {
  io: CliIo;
  globals: () => GlobalOptions;
  output: () => Output;
  emit: (event: KeeperEvent) => void;
  /** Routes events to another renderer (progress bars) for the rest of the command. */
  setSink: (sink: EventSink) => void;
  setResult: (commandName: string, result: CommandResult) => void;
}

function buildProgram(inv: Invocation): Command {
  const program = new Command('appimage-keeper')
    .description('Keeps your AppImages current from declarative YAML recipes.')
    .version(VERSION, '-V, --version', 'print the version')
    .option('--config-dir <dir>', 'configuration directory (default: $XDG_CONFIG_HOME/appimage-keeper)')
    .option('--system', 'manage the apps of every user in /opt, /usr/local and /etc (root only)')
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'disable colours')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'print more detail on stderr (alone: print the version)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => inv.io.stdout.write(guardTerminal(s)),
      writeErr: (s) => inv.io.stderr.write(guardTerminal(s)),
    })
    .exitOverride();

  const ctx = () => createContext(inv.globals(), inv.io.env, inv.emit);

  program
    .command('init')
    .description('write a starter config.yml (--global) or scaffold a recipe (--app NAME --strategy S)')
    .option('--global', 'write config.yml with every field and its default')
    .option('--app <name>', 'scaffold apps/NAME/NAME.yml')
    .addOption(
      new Option('--strategy <strategy>', 'strategy of the new recipe')
        .choices(['forge', 'direct', 'script'])
        .argParser(parseStrategyFlag),
    )
    .option('--force', 'overwrite existing files')
    .action(async (opts: InitOptions) => inv.setResult('init', await initCommand(ctx(), opts)));

  program
    .command('validate')
    .description('check config.yml, secrets.yml and recipes (no network)')
    .argument('[apps...]', 'apps to validate (default: all)')
    .action(async (apps: string[]) => {
      const { validateCommand } = await import('./commands/validate.js');
      inv.setResult('validate', await validateCommand(ctx(), inv.output(), apps));
    });

  program
    .command('list')
    .description('list apps with their installed version, file and integration')
    .option('--wide', 'on a terminal too: every column, full paths, nothing shortened')
    .addOption(new Option('--names', 'print app names only (for shell completion)').hideHelp())
    .action(async (opts: { names?: boolean; wide?: boolean }) =>
      inv.setResult('list', await listCommand(ctx(), inv.output(), opts)),
    );

  program
    .command('info')
    .description('show everything known about one app: recipe, settings and their source, state')
    .argument('<app>', 'app to show')
    .action(async (app: string) => {
      const { infoCommand } = await import('./commands/info.js');
      inv.setResult('info', await infoCommand(ctx(), inv.output(), app));
    });

  program
    .command('edit')
    .description('open an app’s recipe in $VISUAL or $EDITOR and validate it on save')
    .argument('<app>', 'app whose recipe to edit')
    .action(async (app: string) => {
      const { editCommand } = await import('./commands/edit.js');
      inv.setResult('edit', await editCommand(ctx(), inv.output(), app, { stdin: inv.io.stdin }));
    });

  program
    .command('schema')
    .description('print the JSON Schema of config.yml or of a recipe')
    .argument('[kind]', 'config or recipe', 'config')
    .action((kind: string) => inv.setResult('schema', schemaCommand(kind)));

  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'shell to complete').choices(['bash', 'zsh', 'fish']))
    .action((shell: string) => inv.setResult('completion', completionCommand(shell, describeCli(program))));

  program
    .command('version')
    .description('print the version (as -V and --version)')
    .action(() => inv.setResult('version', versionResult()));

  registerEngineCommands(program, inv, ctx);
  registerOpsCommands(program, inv, ctx);
  registerOnboardCommands(program, inv, ctx);
  finishHelp(program);
  attachRootAction(program, inv, versionResult);
  return program;
}

function versionResult(): CommandResult {
  return { exitCode: ExitCode.ok, json: { command: 'version', version: VERSION }, human: VERSION };
}

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
  return describeCli(buildProgram(inv));
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
