import { createColors } from 'picocolors';
import type { KeeperEvent } from '../core/events.js';
import { guardTerminal, jsonText, termMessage, termText } from './terminal-text.js';

type Colors = ReturnType<typeof createColors>;

/** Global flags that shape output. */
export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
}

/** Where and how the CLI writes: results on stdout, warnings and progress on stderr. */
export interface Output extends OutputOptions {
  /** Colours for stdout text (off when stdout is not a TTY, NO_COLOR or --no-color). */
  c: Colors;
  /** Colours for stderr text. */
  ce: Colors;
  /** True when live progress may be drawn on stderr (a TTY, colours allowed, not --json/--quiet). */
  live: boolean;
  /** Cells per line of the terminal on stdout (`COLUMNS` when set, else its size); undefined when stdout is not a terminal. */
  columns: number | undefined;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  out(text: string): void;
  err(text: string): void;
  /** Prints a warning on stderr, once per run: the same text for the same app is not repeated. */
  warn(message: string, app?: string): void;
  /** True when `warn` already printed this warning (outcome lines then leave it out). */
  warned(message: string, app?: string): boolean;
}

function isTty(stream: NodeJS.WritableStream): boolean {
  return (stream as NodeJS.WriteStream).isTTY === true;
}

// A terminal that reports no size is taken as the classic 80 columns.
const DEFAULT_COLUMNS = 80;

function terminalColumns(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv): number | undefined {
  if (!isTty(stream)) return undefined;
  const fromEnv = /^[1-9][0-9]{0,4}$/.test(env.COLUMNS ?? '') ? Number(env.COLUMNS) : undefined;
  const size = (stream as NodeJS.WriteStream).columns;
  return fromEnv ?? (size > 0 ? size : DEFAULT_COLUMNS);
}

/** Builds the output object from flags, streams and the environment (NO_COLOR, TERM=dumb). */
export function createOutput(
  opts: OutputOptions,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
): Output {
  const colorAllowed = opts.color && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb';
  const c = createColors(colorAllowed && isTty(stdout));
  const ce = createColors(colorAllowed && isTty(stderr));
  // NO_COLOR and --no-color are about colour only (no-color.org): bars stay, drawn without colour.
  const live = isTty(stderr) && !opts.json && !opts.quiet && env.TERM !== 'dumb';
  const printed = new Set<string>();
  const key = (message: string, app?: string): string => `${app ?? ''}\0${message}`;
  return {
    ...opts,
    c,
    ce,
    live,
    columns: terminalColumns(stdout, env),
    stdout,
    stderr,
    out(text) {
      // The --json document stays exact: JSON.stringify escapes C0, jsonText the rest (C1, bidi).
      const safe = opts.json ? jsonText(text) : guardTerminal(text);
      stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
    },
    err(text) {
      const safe = guardTerminal(text);
      stderr.write(safe.endsWith('\n') ? safe : `${safe}\n`);
    },
    warn(message, app) {
      if (opts.quiet || printed.has(key(message, app))) return;
      printed.add(key(message, app));
      const prefix = app ? `${termText(app)}: ` : '';
      stderr.write(`${ce.yellow('warning:')} ${prefix}${termMessage(message)}\n`);
    },
    warned(message, app) {
      return printed.has(key(message, app));
    },
  };
}

/** Renders non-progress events (warnings, verbose info) to stderr. */
export function renderEvent(output: Output, event: KeeperEvent): void {
  if (event.type === 'warning') output.warn(event.message, event.app);
  else if (event.type === 'info' && output.verbose && !output.quiet) {
    output.err(output.ce.dim(`${event.app ? `${termText(event.app)}: ` : ''}${termMessage(event.message)}`));
  }
}
