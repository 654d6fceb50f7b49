import type { CliModel } from '../commands/cli-model.js';
import type { CommandCall } from '../commands/command-spec.js';
import type { Invocation } from './invocation.js';
import { createContext } from './runtime.js';

/** What a command's handler gets for one run, from commander's reading of the command line. */
export function commandCall(
  inv: Invocation,
  args: readonly unknown[],
  flags: Record<string, unknown>,
  model: () => CliModel,
): CommandCall<readonly unknown[], Record<string, unknown>> {
  return {
    args,
    flags,
    ctx: () => createContext(inv.globals(), inv.io.env, inv.emit),
    output: inv.output,
    setSink: inv.setSink,
    stdin: () => inv.io.stdin,
    model,
  };
}
