import type { Workspace } from '../config/workspace.js';
import type { Context } from '../context/context.js';
import { toKeeperError, UsageError, type KeeperError } from '../core/errors.js';
import type { EventSink } from '../core/events.js';
import { REPOSITORY } from '../core/version.js';
import type { SelfUpdateResult } from '../system/self-update/self-update.js';
import { defineCommand } from './command-spec.js';
import type { Output } from '../render/output.js';
import { renderEvent } from '../render/output.js';
import { errorJson, errorText } from '../render/render-error.js';
import type { CommandResult } from './result.js';
import { formatBytes } from '../render/table.js';
import { termPath, termText } from '../render/terminal-text.js';

/** Flags of `self-update`. */
export interface SelfUpdateFlags {
  repository?: string;
  force?: boolean;
  insecure?: boolean;
  rollback?: boolean;
}

/** Runs a self-update under the lock; a failure is returned as an error, not thrown. */
export async function runSelfUpdate(
  ctx: Context,
  ws: Workspace,
  flags: SelfUpdateFlags,
): Promise<{ result?: SelfUpdateResult; error?: KeeperError }> {
  try {
    const { withLock } = await import('./lock-scope.js');
    const { selfUpdate } = await import('../system/self-update/self-update.js');
    const { installKindOf } = await import('../system/self-update/install-kind.js');
    const { processFacts } = await import('./process-facts.js');
    const result = await withLock(ctx, 'self-update', (signal) =>
      selfUpdate(ctx, ws, {
        install: installKindOf(processFacts()),
        repository: flags.repository ?? REPOSITORY,
        force: flags.force === true,
        insecure: flags.insecure === true,
        rollback: flags.rollback === true,
        signal,
      }),
    );
    return { result };
  } catch (err) {
    return { error: toKeeperError(err) };
  }
}

/** One human line for a self-update's outcome. */
export function selfUpdateLine(out: Output, r: { result?: SelfUpdateResult; error?: KeeperError }): string {
  const { c } = out;
  const name = c.bold('appimage-keeper');
  if (r.error) return `${c.red('failed')} ${name}: ${errorText(r.error)}`;
  const s = r.result;
  if (!s) return '';
  if (s.status === 'rolled_back')
    return `${c.green('rolled back')} ${name}: ${termPath(s.path)} restored; the executable it replaced is now ${termPath(s.previous)}`;
  // The release's tag and the tarball URL come from the forge.
  const current = termText(s.current);
  const latest = termText(s.latest);
  switch (s.status) {
    case 'up_to_date':
      return `${c.dim('up to date')} ${name} ${current} (latest release ${latest})`;
    case 'updated':
      return `${c.green('updated')} ${name} ${current} → ${latest}  ${termPath(s.path)} (${formatBytes(s.bytes_downloaded)} downloaded${s.provenance ? ', built by our release workflow' : ', NOT verified (--insecure)'}; previous kept as ${termPath(s.previous)})`;
    case 'manual':
      return `${c.yellow('update available')} ${name} ${current} → ${latest}; installed with ${s.install === 'npm' ? 'npm' : 'a clone'}, so update it with:\n  ${termPath(s.command)}`;
  }
}

/** The JSON of a self-update's outcome. */
export function selfUpdateJson(r: {
  result?: SelfUpdateResult;
  error?: KeeperError;
}): Record<string, unknown> {
  if (r.error) return { status: 'failed', error: errorJson(r.error) };
  return { ...r.result };
}

/**
 * `self-update [--repository URL] [--force] [--insecure] | --rollback`: update the tool itself or
 * put the previous executable back (see docs/install.md and docs/trust.md).
 */
async function selfUpdateCommand(
  ctx: Context,
  out: Output,
  flags: SelfUpdateFlags,
  setSink: (sink: EventSink) => void,
): Promise<CommandResult> {
  if (flags.rollback && (flags.force || flags.insecure || flags.repository !== undefined)) {
    throw new UsageError('USAGE', '--rollback takes no other self-update flag', {
      hint: 'it restores <exe>.previous; nothing is downloaded',
    });
  }
  const { loadWorkspace } = await import('../config/workspace.js');
  const { createProgressRenderer } = await import('../render/progress.js');
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  for (const w of ws.warnings) out.warn(w);
  const { applyNetworkFields } = await import('../http/proxy-settings.js');
  applyNetworkFields(ctx, ws.global);
  const progress = createProgressRenderer(out, (e) => renderEvent(out, e));
  setSink(progress.onEvent);
  let r;
  try {
    r = await runSelfUpdate(ctx, ws, flags);
  } finally {
    progress.stop();
  }
  if (r.error) throw r.error;
  const quietNoop = out.quiet && r.result?.status === 'up_to_date';
  return {
    exitCode: 0,
    json: { command: 'self-update', ...selfUpdateJson(r) },
    human: quietNoop ? '' : selfUpdateLine(out, r),
  };
}

/** `self-update`: the tool itself. */
export const selfUpdateSpec = defineCommand<[], SelfUpdateFlags>({
  name: 'self-update',
  summary: 'update appimage-keeper itself (the standalone executable; npm installs get the command)',
  arguments: [],
  flags: [
    {
      flags: '--repository <url>',
      description: `release repository to update from (default: ${REPOSITORY})`,
    },
    { flags: '--force', description: 'reinstall even when the latest release is not newer' },
    {
      flags: '--insecure',
      description:
        'install an executable no attestation of our release workflow vouches for (prints a warning)',
    },
    {
      flags: '--rollback',
      description: 'put back the executable the last self-update replaced (kept as .previous beside it)',
    },
  ],
  examples: [
    ['appimage-keeper self-update', 'update the standalone executable'],
    ['appimage-keeper self-update --rollback', 'put back the executable it replaced'],
    ['appimage-keeper update --self', 'update the apps, then appimage-keeper'],
  ],
  handler: ({ ctx, output, flags, setSink }) => selfUpdateCommand(ctx(), output(), flags, setSink),
});
