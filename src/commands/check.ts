import type { Context } from '../context/context.js';
import { ExitCode, KeeperError } from '../core/errors.js';
import type { LockFile } from '../config/lock-file.js';
import type { LockDrift } from '../app/lock-drift.js';
import { termText } from '../render/terminal-text.js';
import type { AppOutcome, Summary } from '../app/outcome.js';
import type { Output } from '../render/output.js';
import { outcomeLine, summaryLine } from '../render/render-outcomes.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { noRecipesHint } from '../render/setup-hints.js';
import { runLocked } from './engine-run.js';
import { offlineLine } from '../render/offline-line.js';

/** Flags of `check`. */
interface CheckFlags {
  force?: boolean;
  exitCode?: boolean;
  locked?: boolean;
}

/** `check [APP...]`: latest versions for every app; downloads nothing. */
async function checkCommand(
  ctx: Context,
  out: Output,
  names: string[],
  flags: CheckFlags,
): Promise<CommandResult> {
  const { checkApps } = await import('../app/check.js');
  const { summarize } = await import('../app/outcome.js');
  const { interruptionExitCode } = await import('./lock-scope.js');
  const started = Date.now();
  let interruptedExit: number | undefined;
  let offline = false;
  let drift: LockDrift[] | undefined;
  const outcomes = await runLocked(ctx, out, 'check', names, async (run, entries) => {
    // The lock is read first: a broken one stops the run before a request is sent.
    const lock = flags.locked ? await requireLock(ctx) : undefined;
    const result = await checkApps(run, entries, names, { force: flags.force === true });
    offline = run.offline.offline;
    if (lock) {
      const { lockDrift } = await import('../app/lock-drift.js');
      drift = lockDrift(
        entries.map((e) => e.name),
        lock,
        (n) => run.store.app(n),
      );
    }
    // Offline, state stays as it was: nothing was learnt, and no failure is recorded.
    if (!offline) await run.store.save();
    interruptedExit = interruptionExitCode(run.signal);
    return result;
  });
  const summary = summarize(outcomes);
  // Offline is said once, not once per app.
  const lines = outcomes.filter((o) => o.status !== 'offline').map((o) => outcomeLine(o, out));
  if (offline) lines.push(offlineLine());
  const hint = outcomes.length === 0 && names.length === 0 ? noRecipesHint(ctx.paths) : undefined;
  if (drift) lines.push(...driftLines(drift, out));
  lines.push(hint ?? summaryLine(summary, 'check', [`${((Date.now() - started) / 1000).toFixed(1)}s`]));
  const drifted = drift?.some((d) => d.status !== 'at_lock') === true;
  const code = checkExitCode(outcomes, summary, flags.exitCode === true);
  return {
    exitCode:
      interruptedExit ??
      (code === ExitCode.ok && drifted && flags.exitCode ? ExitCode.updatesAvailable : code),
    json: {
      command: 'check',
      apps: outcomes.map((o) => ({
        name: o.name,
        status: o.status,
        installed_version: o.from_version,
        latest_version: o.to_version,
        path: o.path,
        url: o.url ?? null,
        error: o.error,
        retry_at: o.retry_at,
        ...(o.eligible_at !== undefined ? { eligible_at: o.eligible_at } : {}),
        ...((o.status === 'skipped' || o.status === 'deferred') && o.reason ? { reason: o.reason } : {}),
        ...(o.via_proxy !== undefined ? { via_proxy: o.via_proxy } : {}),
        ...(o.held ? { held: true } : {}),
      })),
      summary: summaryJson(summary),
      ...(drift ? { lock: drift } : {}),
      ...(hint ? { hint } : {}),
    },
    human: lines.join('\n'),
  };
}

/** The lock file `--locked` compares with; LOCK_FILE_MISSING when there is none. */
async function requireLock(ctx: Context): Promise<LockFile> {
  const { lockFilePath, readLockFile } = await import('../config/lock-file.js');
  const file = lockFilePath(ctx.paths.configDir);
  const lock = await readLockFile(file, ctx.paths.cacheDir);
  if (lock) return lock;
  throw new KeeperError('LOCK_FILE_MISSING', `--locked: there is no lock file ${file}`, {
    hint: 'write it with `appimage-keeper lock`',
  });
}

/** The drift section: one line per app that is not at its locked release. */
function driftLines(drift: readonly LockDrift[], out: Output): string[] {
  const off = drift.filter((d) => d.status !== 'at_lock');
  if (off.length === 0) return [out.c.dim(`lock: all ${drift.length} apps at their locked release`)];
  return [
    'drift from the lock:',
    ...off.map((d) =>
      d.status === 'missing'
        ? `  ${termText(d.name)}: no lock entry`
        : `  ${termText(d.name)}: installed ${termText(d.installed_version ?? 'nothing')}, locked ${termText(d.locked_version ?? '?')}`,
    ),
  ];
}

/**
 * A failure wins (1); with `--exit-code`, an update that `update` would install gives 10. Held and
 * deferred apps do not count: `update` leaves them alone until `unhold` or the cooldown ends.
 */
function checkExitCode(outcomes: readonly AppOutcome[], summary: Summary, exitCode: boolean): number {
  if (summary.failed > 0) return ExitCode.appFailed;
  const pending = outcomes.some((o) => o.status === 'update_available' && !o.held);
  return exitCode && pending ? ExitCode.updatesAvailable : ExitCode.ok;
}

/** The JSON summary: `interrupted` appears only when an app was interrupted. */
function summaryJson(summary: Summary): Record<string, number> {
  const { interrupted, offline, ...rest } = summary;
  return { ...rest, ...(interrupted > 0 ? { interrupted } : {}), ...(offline > 0 ? { offline } : {}) };
}

/** `check`: the latest version of each app, nothing downloaded. */
export const check = defineCommand<[string[]], CheckFlags>({
  name: 'check',
  summary: 'resolve the latest version of each app; download nothing',
  arguments: [{ name: '[apps...]', description: 'apps to check (default: all)' }],
  flags: [
    { flags: '--force', description: 'send requests even while a rate-limit window is open' },
    {
      flags: '--exit-code',
      description: 'exit 10 when an update is available for an app that is not held',
    },
    {
      flags: '--locked',
      description: 'also report each app against appimage-keeper.lock (drift), apart from upstream',
    },
  ],
  examples: [
    ['appimage-keeper check', 'which apps have a newer release'],
    ['appimage-keeper check obsidian', 'check one app'],
    ['appimage-keeper check --exit-code', 'exit 10 when an update is available (for scripts)'],
  ],
  handler: ({ ctx, output, args: [apps], flags }) => checkCommand(ctx(), output(), apps, flags),
});
