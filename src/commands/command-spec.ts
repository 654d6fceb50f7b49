import type { Context } from '../context/context.js';
import type { EventSink } from '../core/events.js';
import type { Output } from '../render/output.js';
import type { CliModel } from './cli-model.js';
import type { CommandResult } from './result.js';

/** One help example: the command line and what it does. */
export type Example = readonly [command: string, what: string];

/** One flag of a command, as commander registers it and completion offers it. */
export interface FlagSpec {
  /** As written in help: `--every <interval>`, `-q, --quiet`. */
  flags: string;
  description: string;
  /** The only values accepted (commander checks them). */
  choices?: readonly string[];
  /** Turns the raw value into the flag's value; throws a KeeperError on a bad one. */
  parse?: (value: string) => unknown;
  /** Values completion offers for the flag's argument when they are not fixed choices. */
  values?: readonly string[] | 'dirs';
  /** Kept out of help, docs and completion (`list --names`, for completion scripts themselves). */
  hidden?: boolean;
}

/** One positional argument: `<app>`, `[apps...]`. */
export interface ArgumentSpec {
  /** As written in usage: `<app>` (required), `[kind]` (optional), `...` for several. */
  name: string;
  description: string;
  choices?: readonly string[];
  /** The value of an optional argument left out. */
  default?: string;
}

/** What a handler gets for one run of its command. */
export interface CommandCall<Args extends readonly unknown[], Flags> {
  /** The positional arguments, in the order the descriptor declares them. */
  args: Args;
  flags: Flags;
  /** The core Context of this run (built when asked, after the global flags are read). */
  ctx: () => Context;
  output: () => Output;
  /** Routes events to another renderer (progress bars) for the rest of the command. */
  setSink: (sink: EventSink) => void;
  /** For interactive questions; undefined means not interactive. Built when asked. */
  stdin: () => NodeJS.ReadableStream | undefined;
  /** The whole command line as a model (completion scripts are generated from it). */
  model: () => CliModel;
}

/**
 * One command: everything help, docs/cli.md, the man page and completion show, and the handler.
 * A command module exports one; src/commands/index.ts lists them. Its top-level imports stay light
 * (the handler `import()`s its use case) so `--help` and other commands do not load it.
 */
export interface CommandSpec<Args extends readonly unknown[] = never, Flags = never> {
  name: string;
  /** One line, lower case, no final full stop (docs/cli.md adds it). */
  summary: string;
  arguments: readonly ArgumentSpec[];
  flags: readonly FlagSpec[];
  /** Two or three, shown by `--help`, docs/cli.md and the man page. */
  examples: readonly Example[];
  handler: (call: CommandCall<Args, Flags>) => Promise<CommandResult> | CommandResult;
}

/** A command of any argument and flag types, as the registry holds it. */
export type AnyCommandSpec = CommandSpec<readonly unknown[], Record<string, unknown>>;

/** Types a command's descriptor and erases its argument types for the registry. */
export function defineCommand<Args extends readonly unknown[], Flags>(
  spec: CommandSpec<Args, Flags>,
): AnyCommandSpec {
  return spec as unknown as AnyCommandSpec;
}
