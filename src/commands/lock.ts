import type { Context } from '../context/context.js';
import type { Output } from '../render/output.js';
import type { LockOutcome } from '../app/lock.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { termMessage, termPath, termText } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';

/** One app's line: what happened to its entry. */
function lockLine(o: LockOutcome, out: Output): string {
  const { c } = out;
  const version = o.version ? ` ${termText(o.version)}` : '';
  const why = o.error?.message ?? o.reason;
  const tail = why ? c.dim(` (${termMessage(why)})`) : '';
  const word =
    o.status === 'failed' ? c.red(o.status) : o.status === 'locked' ? c.green(o.status) : c.dim(o.status);
  return `${termText(o.name)}: ${word}${version}${tail}`;
}

/** `lock [APP...]`: resolve the apps and pin each to its release's exact bytes. */
async function lockCommand(ctx: Context, out: Output, names: string[]): Promise<CommandResult> {
  const { lockApps, saveLock } = await import('../app/lock.js');
  const { lockFilePath, readLockFile } = await import('../config/lock-file.js');
  const { interruptionExitCode } = await import('./lock-scope.js');
  let interruptedExit: number | undefined;
  const result = await runLocked(ctx, out, 'lock', names, async (run, entries, ws) => {
    const previous = await readLockFile(lockFilePath(ctx.paths.configDir), ctx.paths.cacheDir);
    const r = await lockApps(run, entries, previous, {
      named: names,
      recipeNames: ws.apps.map((a) => a.name),
    });
    const saved = await saveLock(ctx.paths.configDir, r.lock);
    await run.store.save();
    interruptedExit = interruptionExitCode(run.signal);
    return { ...r, ...saved };
  });
  const failed = result.outcomes.filter((o) => o.status === 'failed').length;
  const lines = result.outcomes
    .filter((o) => out.verbose || o.status !== 'unchanged')
    .map((o) => lockLine(o, out));
  const count = Object.keys(result.lock.apps).length;
  lines.push(
    `${result.changed ? 'wrote' : 'unchanged:'} ${termPath(result.file)} (${count} app${count === 1 ? '' : 's'}${failed ? `, ${failed} failed` : ''})`,
  );
  return {
    exitCode: interruptedExit ?? (failed > 0 ? 1 : 0),
    json: {
      command: 'lock',
      file: result.file,
      changed: result.changed,
      apps: result.outcomes.map((o) => ({
        name: o.name,
        status: o.status,
        version: o.version,
        ...(o.reason ? { reason: o.reason } : {}),
        ...(o.eligible_at ? { eligible_at: o.eligible_at } : {}),
        error: o.error ?? null,
      })),
    },
    human: lines.join('\n'),
  };
}

/** `lock`: pin every app to the exact bytes of its current release. */
export const lock = defineCommand<[string[]], Record<string, never>>({
  name: 'lock',
  summary: "pin each app to its release's exact bytes in appimage-keeper.lock",
  arguments: [{ name: '[apps...]', description: 'apps to lock again (default: all)' }],
  flags: [],
  examples: [
    ['appimage-keeper lock', 'write appimage-keeper.lock for every app (commit it)'],
    ['appimage-keeper lock obsidian', "move one app's entry to its current release"],
  ],
  handler: ({ ctx, output, args: [apps] }) => lockCommand(ctx(), output(), apps),
});
