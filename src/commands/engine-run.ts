import type { AppEntry, Workspace } from '../config/workspace.js';
import type { Context } from '../context/context.js';
import type { Run } from '../app/run.js';
import type { Output } from '../render/output.js';

/**
 * Shared start of the state-writing commands: load the workspace (config errors exit 2), pick
 * the apps (unknown names exit 2), take the lock (exit 3), load state, and run `fn`. Loads the
 * engine when called, so the command modules that import it stay light.
 */
export async function runLocked<T>(
  ctx: Context,
  out: Output,
  command: string,
  names: readonly string[],
  fn: (run: Run, entries: AppEntry[], ws: Workspace) => Promise<T>,
  opts: { selectFromState?: boolean } = {},
): Promise<T> {
  const { loadWorkspace, selectApps } = await import('../config/workspace.js');
  const { StateStore } = await import('../state/store.js');
  const { createRun } = await import('../app/run.js');
  const { withLock } = await import('./lock-scope.js');
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  for (const w of ws.warnings) out.warn(w);
  const { applyNetworkFields } = await import('../http/proxy-settings.js');
  applyNetworkFields(ctx, ws.global);
  return withLock(ctx, command, async (signal) => {
    const store = await StateStore.load(ctx.paths.stateDir, ctx.now(), ctx.emit, {
      shared: ctx.paths.layout === 'system',
    });
    store.pruneRateLimits(ctx.now());
    const entries = opts.selectFromState ? [] : selectApps(ws, names);
    const run = createRun(ctx, ws, store, signal);
    return fn(run, entries, ws);
  });
}
