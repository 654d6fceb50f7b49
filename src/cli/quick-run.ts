import { KeeperError } from '../core/errors.js';
import { list } from '../commands/list.js';
import { validate } from '../commands/validate.js';
import type { AnyCommandSpec } from '../commands/command-spec.js';
import { CliRun } from './command-run.js';
import { commandCall } from './command-call.js';
import { GLOBAL_FLAGS } from './global-flags.js';
import type { CliIo } from './invocation.js';
import { quickInvocation, type QuickInvocation } from './quick-parse.js';

/**
 * The commands the npm launcher runs without commander and the other commands' modules (their
 * names are in quick-names.ts, which the launcher reads before loading any of this): the read-only
 * commands people and scripts run most, whose start-up dominates their time (docs/decisions.md,
 * "Start-up").
 */
export const QUICK_COMMANDS: readonly AnyCommandSpec[] = [list, validate];

/**
 * Runs `io.argv` when it is a quick command line (quick-parse.ts) and returns its exit code; undefined
 * when the full CLI must read it. The run takes the same steps as under commander (command-run.ts).
 */
export function runQuick(io: CliIo): Promise<number> | undefined {
  const q = quickInvocation(io.argv, QUICK_COMMANDS, GLOBAL_FLAGS);
  return q && runInvocation(new CliRun(io), q);
}

async function runInvocation(run: CliRun, q: QuickInvocation): Promise<number> {
  try {
    await run.begin(q.globals, q.spec.name);
    // The command model (commander's program) exists only in the full CLI; no quick command reads it.
    const model = (): never => {
      throw new KeeperError('INTERNAL', `${q.spec.name} asked for the command model on the quick path`);
    };
    run.inv.setResult(q.spec.name, await q.spec.handler(commandCall(run.inv, q.args, q.flags, model)));
  } catch (err) {
    return run.failed(err);
  }
  return run.finished();
}
