import type { AnyCommandSpec, FlagSpec } from '../commands/command-spec.js';
import type { GlobalFlagValues } from './command-run.js';

/** A command line the quick path runs: one of its commands, read exactly as commander reads it. */
export interface QuickInvocation {
  spec: AnyCommandSpec;
  args: unknown[];
  flags: Record<string, unknown>;
  globals: GlobalFlagValues;
}

/** How a flag reads on the command line: a switch, a `--no-` switch, or one value. */
interface FlagShape {
  names: string[];
  key: string;
  kind: 'on' | 'off' | 'value';
}

// `--wide`, `-q, --quiet`, `--no-color`, `--config-dir <dir>`: the shapes read here. An optional
// value (`[x]`), several values, choices or a parser make a flag that only commander reads.
const SIMPLE_FLAG = /^(?:-([a-zA-Z]), )?--([a-z][a-z0-9-]*)(?: <[a-z][a-z0-9-]*>)?$/;

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

function shapeOf(f: FlagSpec): FlagShape | undefined {
  const m = SIMPLE_FLAG.exec(f.flags);
  if (!m || f.choices || f.parse) return undefined;
  const [, short, long = ''] = m;
  const names = short ? [`-${short}`, `--${long}`] : [`--${long}`];
  if (f.flags.endsWith('>')) return { names, key: camel(long), kind: 'value' };
  if (long.startsWith('no-')) return { names, key: camel(long.slice(3)), kind: 'off' };
  return { names, key: camel(long), kind: 'on' };
}

function shapesOf(flags: readonly FlagSpec[]): FlagShape[] | undefined {
  const shapes = flags.map(shapeOf);
  const known = shapes.filter((s): s is FlagShape => s !== undefined);
  return known.length === shapes.length ? known : undefined;
}

// commander's values before any flag is read: `--no-x` alone defaults x to true.
function defaults(shapes: readonly FlagShape[]): Record<string, unknown> {
  return Object.fromEntries(shapes.filter((s) => s.kind === 'off').map((s) => [s.key, true]));
}

/**
 * The command line `argv` as commander would read it, when it names one of `specs` and holds
 * nothing but their simple flags, the global flags and the command's optional list of names;
 * undefined for anything else (help, a version flag, an unknown or malformed flag, `--`, bundled
 * short flags, a misplaced word), which the full CLI reads, errors included. Deliberately narrow:
 * whatever it accepts, commander accepts with the same values (test/cli/quick-run.test.ts).
 */
export function quickInvocation(
  argv: readonly string[],
  specs: readonly AnyCommandSpec[],
  globalFlags: readonly FlagSpec[],
): QuickInvocation | undefined {
  const globalShapes = shapesOf(globalFlags);
  if (!globalShapes) return undefined;
  const globals = defaults(globalShapes);
  let spec: AnyCommandSpec | undefined;
  let own: FlagShape[] = [];
  let flags: Record<string, unknown> = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] ?? '';
    if (!token.startsWith('-') || token === '-') {
      if (spec) {
        words.push(token);
        continue;
      }
      spec = specs.find((s) => s.name === token);
      const shapes = spec && shapesOf(spec.flags);
      // Only commands whose arguments are none or one optional list, and whose flags are simple.
      if (!spec || !shapes || !argumentsFit(spec)) return undefined;
      own = shapes;
      flags = defaults(own);
      continue;
    }
    if (token === '--') return undefined;
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const name = eq > 0 ? token.slice(0, eq) : token;
    const mine = own.find((s) => s.names.includes(name));
    const global = globalShapes.find((s) => s.names.includes(name));
    // A name both the command and the program know, or neither: commander decides.
    if ((mine === undefined) === (global === undefined)) return undefined;
    const shape = (mine ?? global) as FlagShape;
    const into = mine ? flags : globals;
    if (shape.kind !== 'value') {
      if (eq > 0) return undefined;
      into[shape.key] = shape.kind === 'on';
      continue;
    }
    const value = eq > 0 ? token.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    into[shape.key] = value;
  }
  if (!spec) return undefined;
  if (spec.arguments.length === 0 && words.length > 0) return undefined;
  return {
    spec,
    args: spec.arguments.length === 0 ? [] : [words],
    flags,
    globals: globals as unknown as GlobalFlagValues,
  };
}

// No argument, or a single optional list (`[apps...]`) without choices or a default.
function argumentsFit(spec: AnyCommandSpec): boolean {
  if (spec.arguments.length === 0) return true;
  const [only, ...more] = spec.arguments;
  return (
    more.length === 0 &&
    only !== undefined &&
    /^\[[a-z][a-z0-9-]*\.\.\.\]$/.test(only.name) &&
    only.choices === undefined &&
    only.default === undefined
  );
}
