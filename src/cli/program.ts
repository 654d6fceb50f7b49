import { Argument, Command, Option } from 'commander';
import { COMMANDS } from '../commands/index.js';
import { versionResult, versionText } from '../commands/version.js';
import { guardTerminal } from '../render/terminal-text.js';
import type { Invocation } from './invocation.js';
import type { AnyCommandSpec, Example, FlagSpec } from '../commands/command-spec.js';
import { describeCli, type CliModel } from '../commands/cli-model.js';
import { commandCall } from './command-call.js';
import { attachRootAction } from './root-action.js';
import { GLOBAL_FLAGS } from './global-flags.js';

/** Examples of the program itself, shown by the root `--help`, docs/cli.md and the man page. */
export const PROGRAM_EXAMPLES: readonly Example[] = [
  ['appimage-keeper search obsidian', 'find an app in the catalogues'],
  ['appimage-keeper add obsidian --install', 'write its recipe and install it'],
  ['appimage-keeper adopt --scan ~/Applications', 'take over the AppImages you already have'],
  ['appimage-keeper update', 'install or update every app'],
  ['appimage-keeper schedule install', 'update daily with a systemd user timer'],
  ['appimage-keeper init --app obsidian --strategy forge', 'write a recipe by hand'],
];

function toOption(f: FlagSpec): Option {
  const o = new Option(f.flags, f.description);
  if (f.choices) o.choices(f.choices);
  if (f.parse) o.argParser(f.parse);
  if (f.hidden) o.hideHelp();
  return o;
}

function toArgument(a: AnyCommandSpec['arguments'][number]): Argument {
  const arg = new Argument(a.name, a.description);
  if (a.choices) arg.choices(a.choices);
  if (a.default !== undefined) arg.default(a.default);
  return arg;
}

function examplesText(examples: readonly Example[]): string {
  if (examples.length === 0) return '';
  const lines = examples.flatMap(([cmd, what]) => [`  # ${what}`, `  $ ${cmd}`]);
  return `\nExamples:\n${lines.join('\n')}\n`;
}

/** The model of a program `buildProgram` made: what help, docs, man page and completion read. */
export function modelOf(program: Command): CliModel {
  return describeCli(program, COMMANDS, GLOBAL_FLAGS, PROGRAM_EXAMPLES);
}

/** The commander program with every command of the registry, acting through `inv`. */
export function buildProgram(inv: Invocation): Command {
  const program = new Command('appimage-keeper')
    .description('Keeps your AppImages current from declarative YAML recipes.')
    // `--version --verbose` also names the Node.js runtime (commander prints the text it is given).
    .version(
      versionText(inv.io.argv.includes('--verbose') || inv.io.argv.includes('-v')),
      '-V, --version',
      'print the version (with --verbose, also the Node.js runtime)',
    );
  for (const f of GLOBAL_FLAGS) program.addOption(toOption(f));
  program
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => inv.io.stdout.write(guardTerminal(s)),
      writeErr: (s) => inv.io.stderr.write(guardTerminal(s)),
    })
    .exitOverride();

  const model = (): CliModel => modelOf(program);
  for (const spec of COMMANDS) {
    const cmd = program.command(spec.name).description(spec.summary);
    for (const a of spec.arguments) cmd.addArgument(toArgument(a));
    for (const f of spec.flags) cmd.addOption(toOption(f));
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const result = await spec.handler(commandCall(inv, self.processedArgs, self.opts(), model));
      inv.setResult(spec.name, result);
    });
    // Every subcommand's help lists the global flags and ends with its examples.
    cmd.configureHelp({ ...cmd.configureHelp(), showGlobalOptions: true });
    cmd.addHelpText('after', examplesText(spec.examples));
  }
  program.addHelpText('after', examplesText(PROGRAM_EXAMPLES));
  attachRootAction(program, inv, versionResult);
  return program;
}
