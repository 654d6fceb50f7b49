import type { Context } from '../context/context.js';
import type { EventSink } from '../core/events.js';
import { summarize, type AppOutcome } from '../app/outcome.js';
import type { Workspace } from '../config/workspace.js';
import type { LockFile } from '../config/lock-file.js';
import type { Output } from '../render/output.js';
import { renderEvent } from '../render/output.js';
import { outcomeLine, summaryLine } from '../render/render-outcomes.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { formatBytes } from '../render/table.js';
import { noRecipesHint } from '../render/setup-hints.js';
import { runLocked } from './engine-run.js';
import { offlineLine } from '../render/offline-line.js';
import { runSelfUpdate, selfUpdateJson, selfUpdateLine } from './self-update.js';

/** Flags of `update`. */
export interface UpdateFlags {
  force?: boolean;
  dryRun?: boolean;
  showAll?: boolean;
  /** Also update appimage-keeper itself after the apps. */
  self?: boolean;
  /** Install exactly the lock file's releases. */
  locked?: boolean;
}

function listed(o: AppOutcome, showAll: boolean, dryRun: boolean, quiet: boolean): boolean {
  if (showAll) return true;
  // A timer run hits rate limits and cooldowns routinely and a later run catches up: --quiet keeps silent.
  if (quiet && (o.status === 'rate_limited' || o.status === 'deferred')) return false;
  if (dryRun && o.skip === 'dry_run') return true;
  // An up-to-date app whose desktop entry was adapted to the host still has something to say.
  return (
    o.status === 'updated' ||
    o.status === 'deferred' ||
    o.status === 'rate_limited' ||
    o.status === 'failed' ||
    o.status === 'interrupted' ||
    o.warnings.length > 0
  );
}

/** The lock file for `--locked` (LOCK_FILE_MISSING without one) and a warning per entry without a recipe. */
async function loadLock(
  ctx: Context,
  ws: Workspace,
  names: readonly string[],
): Promise<{ lock: LockFile; warnings: string[] }> {
  const { lockFilePath, readLockFile } = await import('../config/lock-file.js');
  const { KeeperError } = await import('../core/errors.js');
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

/** `update [APP...]`: resolve, download, verify and install; the main job. */
export async function updateCommand(
  ctx: Context,
  out: Output,
  names: string[],
  flags: UpdateFlags,
  setSink: (sink: EventSink) => void,
): Promise<CommandResult> {
  const { updateApps } = await import('../app/update.js');
  const { notifyAfterUpdate } = await import('../app/notify.js');
  const { createProgressRenderer } = await import('../render/progress.js');
  const { interruptionExitCode } = await import('./lock-scope.js');
  const started = Date.now();
  const progress = createProgressRenderer(out, (e) => renderEvent(out, e));
  setSink(progress.onEvent);
  let showAllConfig = false;
  let workspace: Workspace | undefined;
  let outcomes: AppOutcome[];
  let interruptedExit: number | undefined;
  let offline = false;
  try {
    outcomes = await runLocked(ctx, out, 'update', names, async (run, entries, ws) => {
      showAllConfig = ws.global.show_all;
      workspace = ws;
      const locked = flags.locked ? await loadLock(ctx, ws, names) : undefined;
      if (locked) for (const w of locked.warnings) out.warn(w);
      const result = await updateApps(run, entries, {
        force: flags.force === true,
        dryRun: flags.dryRun === true,
        named: names,
        locked: locked?.lock,
      });
      offline = run.offline.offline;
      // Offline, state stays as it was: no last run, no failure records, no rate-limit windows.
      if (!flags.dryRun && !offline) {
        const summary = summarize(result);
        run.store.setLastRun({
          command: 'update',
          startedAt: new Date(started).toISOString(),
          finishedAt: ctx.now().toISOString(),
          summary: { ...summary },
          updated: result.filter((o) => o.status === 'updated').map((o) => o.name),
          failed: result.filter((o) => o.status === 'failed').map((o) => o.name),
        });
        await run.store.save();
      }
      interruptedExit = interruptionExitCode(run.signal);
      return result;
    });
  } finally {
    progress.stop();
  }
  // After the lock is released: a slow notification daemon must not hold up the next run.
  if (!flags.dryRun && !offline && workspace) await notifyAfterUpdate(ctx, workspace, outcomes);
  const self =
    !flags.dryRun && !offline && workspace && (flags.self === true || workspace.global.auto_self_update)
      ? await runSelfUpdate(ctx, workspace, {})
      : undefined;
  const summary = summarize(outcomes);
  const showAll = flags.showAll === true || showAllConfig;
  const bytes = outcomes.reduce((n, o) => n + (o.bytes_downloaded ?? 0), 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const lines = outcomes
    .filter((o) => listed(o, showAll, flags.dryRun === true, out.quiet))
    .map((o) => outcomeLine(o, out));
  const changed = summary.updated + summary.failed + summary.interrupted > 0;
  const hint = outcomes.length === 0 && names.length === 0 ? noRecipesHint(ctx.paths) : undefined;
  if (offline) lines.push(offlineLine());
  // --quiet from a timer: nothing at all when nothing changed (a rate limit is not a change).
  if (hint) {
    if (!out.quiet) lines.push(hint);
  } else if (!(out.quiet && !changed))
    lines.push(
      summaryLine(
        summary,
        'update',
        [`${formatBytes(bytes)} downloaded`, `${seconds}s`],
        // Dry-run apps are counted as "would update"; skipped apps not listed above are named.
        outcomes.filter((o) => o.skip === 'dry_run' || !listed(o, showAll, flags.dryRun === true, out.quiet)),
      ),
    );
  if (self && !(out.quiet && self.result?.status === 'up_to_date')) lines.push(selfUpdateLine(out, self));
  return {
    exitCode: interruptedExit ?? (summary.failed > 0 || self?.error ? 1 : 0),
    json: {
      command: 'update',
      dry_run: flags.dryRun === true,
      ...(flags.locked ? { locked: true } : {}),
      apps: outcomes.map((o) => ({
        name: o.name,
        status: o.status,
        from_version: o.from_version,
        to_version: o.to_version,
        path: o.path,
        error: o.error,
        retry_at: o.retry_at,
        ...(o.eligible_at !== undefined ? { eligible_at: o.eligible_at } : {}),
        ...(o.reason ? { reason: o.reason } : {}),
        ...(o.url ? { url: o.url } : {}),
        ...(o.method ? { method: o.method } : {}),
        ...(o.bytes_downloaded !== undefined ? { bytes_downloaded: o.bytes_downloaded } : {}),
        ...(o.bytes_reused !== undefined ? { bytes_reused: o.bytes_reused } : {}),
        ...(o.desktop ? { desktop: o.desktop } : {}),
        ...(o.via_proxy !== undefined ? { via_proxy: o.via_proxy } : {}),
        warnings: o.warnings,
      })),
      summary: {
        updated: summary.updated,
        up_to_date: summary.up_to_date,
        rate_limited: summary.rate_limited,
        failed: summary.failed,
        skipped: summary.skipped,
        deferred: summary.deferred,
        ...(summary.interrupted > 0 ? { interrupted: summary.interrupted } : {}),
        ...(summary.offline > 0 ? { offline: summary.offline } : {}),
      },
      bytes_downloaded: bytes,
      seconds: Number(seconds),
      ...(hint ? { hint } : {}),
      ...(self ? { self_update: selfUpdateJson(self) } : {}),
    },
    human: lines.join('\n'),
  };
}

/** `update`: resolve, download, verify and install. */
export const update = defineCommand<[string[]], UpdateFlags>({
  name: 'update',
  summary: 'resolve, download, verify and install new versions',
  arguments: [{ name: '[apps...]', description: 'apps to update (default: all)' }],
  flags: [
    {
      flags: '--force',
      description:
        'reinstall even when up to date; lifts a rollback hold and ignores open rate-limit windows',
    },
    { flags: '--dry-run', description: 'show what would be downloaded; write nothing' },
    { flags: '--show-all', description: 'also list apps that are up to date' },
    { flags: '--self', description: 'then update appimage-keeper itself (as `self-update`)' },
    {
      flags: '--locked',
      description: 'install exactly the releases of appimage-keeper.lock (see `lock`); no release lookup',
    },
  ],
  examples: [
    ['appimage-keeper update', 'update every app that has a new release'],
    ['appimage-keeper update --dry-run obsidian', 'show what would be downloaded'],
    ['appimage-keeper update --locked', 'install exactly the bytes the lock file pins'],
  ],
  handler: ({ ctx, output, args: [apps], flags, setSink }) =>
    updateCommand(ctx(), output(), apps, flags, setSink),
});
