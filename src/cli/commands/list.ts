import { lstat, stat } from 'node:fs/promises';
import { loadWorkspace } from '../../config/workspace.js';
import type { Context } from '../../core/context.js';
import { StateStore } from '../../state/store.js';
import type { Output } from '../output.js';
import type { CommandResult } from '../result.js';
import { formatBytes, table } from '../table.js';
import { errorJson } from '../render-error.js';
import { signatureJson } from '../signature-json.js';
import { termPath, termText } from '../terminal-text.js';

async function present(path: string | undefined, follow = true): Promise<boolean> {
  if (!path) return false;
  return (follow ? stat(path) : lstat(path)).then(
    () => true,
    () => false,
  );
}

// A day is enough in a table; --json has the full timestamps.
function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '-';
}

/** `list`: every recipe with what is installed for it; reads state, never writes or locks. */
export async function listCommand(
  ctx: Context,
  out: Output,
  opts: { names?: boolean },
): Promise<CommandResult> {
  const ws = await loadWorkspace(ctx.paths, ctx.env);
  if (opts.names) {
    const names = ws.apps.map((a) => a.name);
    return { exitCode: 0, json: { command: 'list', names }, human: names.map((n) => termText(n)).join('\n') };
  }
  for (const w of ws.warnings) out.warn(w);
  const state = await StateStore.load(ctx.paths.stateDir, ctx.now(), ctx.emit, { readOnly: true });
  const apps = await Promise.all(
    ws.apps.map(async (app) => {
      const s = state.app(app.name);
      const file = s?.installed?.file;
      const fileStat = file ? await stat(file).catch(() => undefined) : undefined;
      return {
        name: app.name,
        recipe: app.file,
        valid: app.ok,
        strategy: app.ok ? app.settings.strategy.strategy : (s?.strategy ?? null),
        ignored: app.ok ? app.settings.ignore : false,
        held: s?.hold === true,
        version: s?.installed?.version ?? null,
        previous_version: s?.previous?.version ?? null,
        path: file ?? null,
        file_present: fileStat !== undefined,
        size: fileStat?.size ?? null,
        integration: app.ok ? app.settings.manage_desktop_files : null,
        desktop_entry: s?.integration?.desktopFile ?? null,
        desktop_entry_present: await present(s?.integration?.desktopFile),
        symlink: s?.symlink ?? null,
        symlink_present: await present(s?.symlink, false),
        last_check: s?.lastCheck ?? null,
        last_update: s?.lastUpdate ?? null,
        signature: signatureJson(s?.signature),
        error: app.ok ? null : errorJson(app.error),
      };
    }),
  );
  const { c } = out;
  const rows = [
    ['NAME', 'STRATEGY', 'VERSION', 'SIZE', 'CHECKED', 'UPDATED', 'DESKTOP', 'SYMLINK', 'STATUS', 'FILE'].map(
      (h) => c.bold(h),
    ),
  ];
  for (const a of apps) {
    const status = !a.valid
      ? c.red('invalid recipe')
      : a.ignored
        ? c.dim('ignored')
        : a.held
          ? c.yellow('held')
          : a.path && !a.file_present
            ? c.red('file missing')
            : a.version
              ? 'installed'
              : c.dim('not installed');
    // Names, versions (forge tags) and paths come from recipes, forges and state: escape them.
    rows.push([
      termText(a.name),
      a.strategy ?? '-',
      a.version === null ? '-' : termText(a.version),
      a.size === null ? '-' : formatBytes(a.size),
      day(a.last_check),
      day(a.last_update),
      a.desktop_entry ? (a.desktop_entry_present ? 'yes' : c.red('missing')) : a.integration ? '-' : 'off',
      a.symlink ? (a.symlink_present ? 'yes' : c.red('missing')) : '-',
      status,
      a.path === null ? '-' : termPath(a.path),
    ]);
  }
  const human = apps.length
    ? table(rows)
    : `no recipes in ${termPath(ctx.paths.appsDir)} (create one with: appimage-keeper init --app NAME --strategy forge)`;
  return { exitCode: 0, json: { command: 'list', apps }, human };
}
