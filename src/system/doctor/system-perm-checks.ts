import { join } from 'node:path';
import type { GlobalSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../context/context.js';
import {
  inspectEntry,
  isUnsafe,
  MAX_ENTRIES,
  uniqueFindings,
  walkTree,
  type Finding,
} from '../../core/root-only.js';
import { StateStore } from '../../state/store.js';
import { appSettingsOrGlobal } from './dir-checks.js';
import { check, type DoctorCheck } from './types.js';

const SHOWN = 5;

/** What to look at: trees walked whole, and single entries (folders shared with others, our files). */
interface Targets {
  /** Folders that hold only what we put there (private ones need not be readable by all). */
  trees: { dir: string; shared: boolean }[];
  /** Entries checked alone: shared folders (symlink_dir, applications) and what we wrote in them. */
  entries: { path: string; shared: boolean }[];
}

async function targetsOf(ctx: Context, settings: GlobalSettings[]): Promise<Targets> {
  const { paths } = ctx;
  const store = await StateStore.load(paths.stateDir, ctx.now(), () => undefined, { readOnly: true });
  const written = Object.values(store.snapshot().apps).flatMap((app) => [
    app.symlink,
    app.integration?.desktopFile,
    ...(app.integration?.icons ?? []),
    app.previous?.integration?.desktopFile,
  ]);
  return {
    trees: [
      { dir: paths.configDir, shared: false },
      { dir: paths.stateDir, shared: false },
      ...[...new Set(settings.map((s) => s.storage_dir))].map((dir) => ({ dir, shared: true })),
    ],
    entries: [
      ...new Set([
        ...settings.filter((s) => s.create_symlinks).map((s) => s.symlink_dir),
        ...(settings.some((s) => s.manage_desktop_files)
          ? [paths.applicationsDir, paths.iconsDir, join(paths.iconsDir, 'hicolor')]
          : []),
        ...written.filter((p): p is string => typeof p === 'string'),
      ]),
    ].map((path) => ({ path, shared: true })),
  };
}

/**
 * `doctor --system`: every folder and file the system layout manages is owned by root and writable
 * by root only (anyone else who can write there can replace a program that other users run), and
 * what users run is readable by them. Fails with the chmod/chown commands that fix it.
 */
export async function systemPermissionCheck(
  ctx: Context,
  ws: Workspace | undefined,
  global: GlobalSettings,
): Promise<DoctorCheck> {
  const targets = await targetsOf(ctx, appSettingsOrGlobal(ws, global));
  const findings: Finding[] = [];
  const budget = { left: MAX_ENTRIES };
  for (const t of targets.trees) await walkTree(t.dir, t.shared, findings, budget);
  for (const e of targets.entries) await inspectEntry(e.path, e.shared, findings);
  // Recipes and resolver scripts reached through links or absolute paths, judged when loaded.
  const found = uniqueFindings([...findings, ...(ws?.notRootOnly ?? [])]);
  const truncated = budget.left < 0 ? ` (stopped after ${MAX_ENTRIES} entries)` : '';
  if (found.length === 0)
    return check('system-permissions', 'ok', `managed folders and files are root's alone${truncated}`);
  const unsafe = found.some(isUnsafe);
  const shown = found.slice(0, SHOWN).map((f) => `${f.path} is ${f.problem}`);
  const more = found.length > SHOWN ? `; and ${found.length - SHOWN} more` : '';
  return check(
    'system-permissions',
    unsafe ? 'fail' : 'warn',
    `${shown.join('; ')}${more}${truncated}`,
    [...new Set(found.map((f) => f.fix))].slice(0, 2 * SHOWN).join('\n'),
  );
}
