import type { Context } from '../context/context.js';
import type { AppEntry, Workspace } from '../config/workspace.js';
import type { LockFile } from '../config/lock-file.js';
import { KeeperError } from '../core/errors.js';
import { summarize, type AppOutcome } from './outcome.js';
import type { Run } from './run.js';
import { updateApps, type UpdateOptions } from './update.js';

/**
 * The lock file `update --locked` installs (LOCK_FILE_MISSING without one), and a warning for each
 * entry without a recipe when every app is updated.
 */
export async function loadUpdateLock(
  ctx: Context,
  ws: Workspace,
  names: readonly string[],
): Promise<{ lock: LockFile; warnings: string[] }> {
  const { lockFilePath, readLockFile } = await import('../config/lock-file.js');
  const file = lockFilePath(ctx.paths.configDir);
  const lock = await readLockFile(file, ctx.paths.cacheDir);
  if (!lock) {
    throw new KeeperError('LOCK_FILE_MISSING', `--locked: there is no lock file ${file}`, {
      hint: 'write it with `appimage-keeper lock` on the machine that tests the releases, or copy it there',
    });
  }
  const recipes = new Set(ws.apps.map((a) => a.name));
  const orphans = names.length ? [] : Object.keys(lock.apps).filter((n) => !recipes.has(n));
  const warnings = orphans.map(
    (n) => `the lock file has an entry for ${n} but there is no recipe for it; ignored`,
  );
  return { lock, warnings };
}

/**
 * `update` under the lock: updates `entries` and records the run as the last one in state. A dry
 * run, or a run that found the machine offline, leaves state as it was: no last run, no failure
 * records, no rate-limit windows.
 */
export async function updateAndRecord(
  run: Run,
  entries: readonly AppEntry[],
  opts: UpdateOptions & { startedAt: Date },
): Promise<AppOutcome[]> {
  const outcomes = await updateApps(run, entries, opts);
  if (opts.dryRun || run.offline.offline) return outcomes;
  const summary = summarize(outcomes);
  run.store.setLastRun({
    command: 'update',
    startedAt: opts.startedAt.toISOString(),
    finishedAt: run.ctx.now().toISOString(),
    summary: { ...summary },
    updated: outcomes.filter((o) => o.status === 'updated').map((o) => o.name),
    failed: outcomes.filter((o) => o.status === 'failed').map((o) => o.name),
  });
  await run.store.save();
  return outcomes;
}
