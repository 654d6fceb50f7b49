import type { Command, Option } from 'commander';
import type { Example, FlagSpec } from './command-spec.js';

/** One flag as help, the reference docs and completion see it. */
export interface FlagModel {
  /** As written in help: `-q, --quiet`, `--every <interval>`. */
  flags: string;
  long: string | undefined;
  short: string | undefined;
  description: string;
  /** Takes a value (`--app <name>`). */
  takesValue: boolean;
  /** The only values the flag accepts, if fixed. */
  choices: readonly string[] | undefined;
  /** Values completion offers for the flag's argument; `dirs` completes directories. */
  values: readonly string[] | 'dirs' | undefined;
}

/** One positional argument. */
export interface ArgumentModel {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  /** Fixed values (choices), if any. */
  choices: readonly string[] | undefined;
}

/** One subcommand. */
export interface CommandModel {
  name: string;
  description: string;
  /** `appimage-keeper update [options] [apps...]`. */
  usage: string;
  arguments: ArgumentModel[];
  flags: FlagModel[];
  examples: readonly (readonly [string, string])[];
  /** Its positional arguments are app names (completion offers `list --names`). */
  takesApps: boolean;
  /** Its first argument may be a catalogue name (`add`): completion offers the cached names. */
  takesCatalogueNames: boolean;
}

/** The whole command line: what every generated artefact (help, docs, man page, completion) reads. */
export interface CliModel {
  name: string;
  description: string;
  version: string;
  globalFlags: FlagModel[];
  /** Examples of the program itself. */
  examples: readonly Example[];
  commands: CommandModel[];
}

/** What the model takes from a command's descriptor beyond what commander holds. */
interface CommandExtras {
  name: string;
  flags: readonly FlagSpec[];
  examples: readonly Example[];
}

function flagModel(o: Option, specs: readonly FlagSpec[]): FlagModel {
  const takesValue = o.required || o.optional;
  return {
    flags: o.flags,
    long: o.long,
    short: o.short,
    description: o.description,
    takesValue,
    choices: o.argChoices,
    values: o.argChoices ?? specs.find((f) => f.flags === o.flags)?.values,
  };
}

function visible(o: Option): boolean {
  return !o.hidden;
}

function commandModel(program: Command, cmd: Command, extras: CommandExtras | undefined): CommandModel {
  const args: ArgumentModel[] = cmd.registeredArguments.map((a) => ({
    name: a.name(),
    description: a.description,
    required: a.required,
    variadic: a.variadic,
    choices: a.argChoices,
  }));
  return {
    name: cmd.name(),
    description: cmd.description(),
    usage: `${program.name()} ${cmd.name()} ${cmd.usage()}`.trim(),
    arguments: args,
    flags: cmd.options.filter(visible).map((o) => flagModel(o, extras?.flags ?? [])),
    examples: extras?.examples ?? [],
    takesApps: args.some((a) => /^apps?$/.test(a.name)),
    takesCatalogueNames: args[0]?.name === 'name-or-url',
  };
}

/**
 * Reads the registered commander program into a plain model, every command included; examples and
 * completion values come from the descriptors the program was built from.
 */
export function describeCli(
  program: Command,
  specs: readonly CommandExtras[],
  globalFlags: readonly FlagSpec[],
  examples: readonly Example[],
): CliModel {
  const commands = program.commands
    .filter((c) => !(c as Command & { _hidden?: boolean })._hidden)
    .map((c) =>
      commandModel(
        program,
        c,
        specs.find((s) => s.name === c.name()),
      ),
    );
  return {
    name: program.name(),
    description: program.description(),
    version: program.version() ?? '',
    globalFlags: program.options.filter(visible).map((o) => flagModel(o, globalFlags)),
    examples,
    commands,
  };
}
