import type { EventSink, KeeperEvent } from '../core/events.js';
import type { CommandResult } from '../commands/result.js';
import type { Output } from '../render/output.js';
import type { GlobalOptions } from './runtime.js';

/** Streams and environment of one CLI invocation (tests pass their own). */
export interface CliIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** For interactive questions (`edit` offering to reopen); absent means not interactive. */
  stdin?: NodeJS.ReadableStream | undefined;
}

/** Per-invocation plumbing shared by command actions; main.ts makes one per run. */
export interface Invocation {
  io: CliIo;
  globals: () => GlobalOptions;
  output: () => Output;
  emit: (event: KeeperEvent) => void;
  /** Routes events to another renderer (progress bars) for the rest of the command. */
  setSink: (sink: EventSink) => void;
  setResult: (commandName: string, result: CommandResult) => void;
}
