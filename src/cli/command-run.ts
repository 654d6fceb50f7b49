import { ExitCode, KeeperError, toKeeperError } from '../core/errors.js';
import type { EventSink } from '../core/events.js';
import type { CommandResult } from '../commands/result.js';
import { assertConfigDir } from '../render/setup-hints.js';
import { resolvePaths } from '../config/paths.js';
import {
  effectiveUid,
  assertRootOnlyConfig,
  enterSystemMode,
  requestedLayout,
  rootWithoutSystemNotice,
} from './system-mode.js';
import { createOutput, renderEvent, type Output } from '../render/output.js';
import { errorJson, errorText } from '../render/render-error.js';
import type { GlobalOptions } from './runtime.js';
import type { CliIo, Invocation } from './invocation.js';

/** The program's own flags as parsed (commander's `program.opts()`). */
export interface GlobalFlagValues {
  configDir?: string | undefined;
  system?: boolean | undefined;
  json?: boolean | undefined;
  color: boolean;
  quiet?: boolean | undefined;
  verbose?: boolean | undefined;
}

/**
 * One run of the CLI from its command line (read by commander, main.ts) to its exit code: `begin`
 * before the handler (which gets its run from command-call.ts), then `finished` or `failed` for
 * the exit code and the last output.
 */
export class CliRun {
  globals: GlobalOptions;
  commandName = 'appimage-keeper';
  readonly inv: Invocation;
  private out: Output | undefined;
  private sink: EventSink | undefined;
  private result: CommandResult | undefined;

  constructor(readonly io: CliIo) {
    // Known before parsing, so that a usage error can answer in JSON.
    this.globals = {
      json: io.argv.includes('--json'),
      color: true,
      quiet: false,
      verbose: false,
      layout: 'user',
    };
    this.inv = {
      io,
      globals: () => this.globals,
      output: () => this.output(),
      emit: (event) => (this.sink ? this.sink(event) : renderEvent(this.output(), event)),
      setSink: (s) => {
        this.sink = s;
      },
      setResult: (name, r) => {
        this.commandName = name;
        this.result = r;
      },
    };
  }

  /** The run's output, made on first use from the global flags known then. */
  output(): Output {
    const g = this.globals;
    this.out ??= createOutput(
      { json: g.json, quiet: g.quiet, verbose: g.verbose, color: g.color },
      this.io.stdout,
      this.io.stderr,
      this.io.env,
    );
    return this.out;
  }

  /**
   * Takes the global flags and checks what every command needs before it runs: root for --system,
   * the configuration folder, root-only configuration; warns root that runs without --system.
   */
  async begin(flags: GlobalFlagValues, commandName: string): Promise<void> {
    const { io } = this;
    this.globals = {
      configDir: flags.configDir,
      json: flags.json === true,
      color: flags.color,
      quiet: flags.quiet === true,
      verbose: flags.verbose === true,
      layout: requestedLayout(flags.system === true, io.env),
    };
    this.commandName = commandName;
    const uid = effectiveUid();
    if (this.globals.layout === 'system') enterSystemMode(uid);
    const paths = resolvePaths(io.env, this.globals.configDir, this.globals.layout);
    await assertConfigDir(paths, this.globals.configDir !== undefined, commandName);
    await assertRootOnlyConfig(paths, commandName);
    // --quiet would hide it: keep it for a run that shows warnings.
    const notice = this.globals.quiet ? undefined : await rootWithoutSystemNotice(paths, uid, commandName);
    if (notice) this.output().warn(notice);
  }

  /** Prints an error a command threw (not a usage error) and returns its exit code. */
  failed(err: unknown): number {
    const kerr = err instanceof KeeperError ? err : toKeeperError(err);
    const out = this.output();
    if (this.globals.json) {
      out.out(JSON.stringify({ command: this.commandName, error: errorJson(kerr) }));
    } else {
      out.err(`${out.ce.red('error:')} ${errorText(kerr)}`);
      if (this.globals.verbose && !(err instanceof KeeperError) && err instanceof Error && err.stack)
        out.err(err.stack);
    }
    return kerr.exitCode;
  }

  /** Prints the command's result and returns its exit code (a usage error when there is none). */
  finished(): number {
    const { result } = this;
    if (!result) return ExitCode.usage;
    const out = this.output();
    if (this.globals.json) out.out(JSON.stringify(result.json));
    else if (result.human) out.out(result.human);
    return result.exitCode;
  }
}
