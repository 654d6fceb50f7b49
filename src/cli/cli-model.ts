import type { Command, Option } from 'commander';
import { INTERVAL_SUGGESTIONS } from '../system/schedule/interval.js';
import { examplesOf } from './help-examples.js';

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
}

/** The whole command line: what every generated artefact (help, docs, man page, completion) reads. */
export interface CliModel {
  name: string;
  description: string;
  version: string;
  globalFlags: FlagModel[];
  commands: CommandModel[];
}

/** Values completion offers for a flag's argument, by long flag name. */
const FLAG_VALUES: Record<string, readonly string[] | 'dirs'> = {
  '--config-dir': 'dirs',
  '--every': INTERVAL_SUGGESTIONS,
};

function flagModel(o: Option): FlagModel {
  const takesValue = o.required || o.optional;
  return {
    flags: o.flags,
    long: o.long,
    short: o.short,
    description: o.description,
    takesValue,
    choices: o.argChoices,
    values: o.argChoices ?? (o.long ? FLAG_VALUES[o.long] : undefined),
  };
}

function visible(o: Option): boolean {
  return !o.hidden;
}

function commandModel(program: Command, cmd: Command): CommandModel {
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
    flags: cmd.options.filter(visible).map(flagModel),
    examples: examplesOf(cmd.name()),
    takesApps: args.some((a) => /^apps?$/.test(a.name)),
  };
}

/** Reads the registered commander program into a plain model, every command included. */
export function describeCli(program: Command): CliModel {
  const commands = program.commands
    .filter((c) => !(c as Command & { _hidden?: boolean })._hidden)
    .map((c) => commandModel(program, c));
  return {
    name: program.name(),
    description: program.description(),
    version: program.version() ?? '',
    globalFlags: program.options.filter(visible).map(flagModel),
    commands,
  };
}
