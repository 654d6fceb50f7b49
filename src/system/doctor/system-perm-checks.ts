import { lstat, opendir } from 'node:fs/promises';
import { join } from 'node:path';
import type { GlobalSettings } from '../../config/types.js';
import type { Workspace } from '../../config/workspace.js';
import type { Context } from '../../core/context.js';
import { shellQuote } from '../../core/shell-quote.js';
import { StateStore } from '../../state/store.js';
import { appSettingsOrGlobal } from './dir-checks.js';
import { check, type DoctorCheck } from './types.js';

// A managed tree is ours, but a hostile one must not make doctor walk forever.
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 16;
const SHOWN = 5;

/** One entry that breaks the system layout's rule, and the command that fixes it. */
interface Finding {
  path: string;
  problem: string;
  fix: string;
}

/** What to look at: trees walked whole, and single entries (folders shared with others, our files). */
interface Targets {
  /** Folders that hold only what we put there (private ones need not be readable by all). */
  trees: { dir: string; shared: boolean }[];
  /** Entries checked alone: shared folders (symlink_dir, applications) and what we wrote in them. */
  entries: { path: string; shared: boolean }[];
}

/** Owner root and no group/other write bit; a shared entry must also be readable by all. */
async function inspect(path: string, shared: boolean, out: Finding[]): Promise<'dir' | 'other' | 'missing'> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return 'missing';
  const q = shellQuote(path);
  if (st.uid !== 0)
    out.push({ path, problem: `owned by uid ${st.uid}, not root`, fix: `chown -h root:root ${q}` });
  if (st.isSymbolicLink()) return 'other';
  const mode = st.mode & 0o7777;
  if (mode & 0o022) {
    const who = mode & 0o002 ? 'everyone' : 'its group';
    out.push({ path, problem: `writable by ${who} (mode ${mode.toString(8)})`, fix: `chmod go-w ${q}` });
  }
  const readAll = st.isDirectory() ? 0o005 : 0o004;
  if (shared && (mode & readAll) !== readAll) {
    out.push({
      path,
      problem: `not readable by other users (mode ${mode.toString(8)})`,
      fix: `chmod ${st.isDirectory() ? 'a+rx' : 'a+r'} ${q}`,
    });
  }
  return st.isDirectory() ? 'dir' : 'other';
}

async function walk(dir: string, shared: boolean, out: Finding[], budget: { left: number }): Promise<void> {
  const queue: { dir: string; depth: number }[] = [{ dir, depth: 0 }];
  if ((await inspect(dir, shared, out)) !== 'dir') return;
  for (let item = queue.shift(); item; item = queue.shift()) {
    const handle = await opendir(item.dir).catch(() => undefined);
    if (!handle) continue;
    for await (const entry of handle) {
      if (--budget.left < 0) break;
      const path = join(item.dir, entry.name);
      const kind = await inspect(path, shared, out);
      if (kind === 'dir' && item.depth + 1 < MAX_DEPTH) queue.push({ dir: path, depth: item.depth + 1 });
    }
    if (budget.left < 0) return;
  }
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
  for (const t of targets.trees) await walk(t.dir, t.shared, findings, budget);
  for (const e of targets.entries) await inspect(e.path, e.shared, findings);
  const truncated = budget.left < 0 ? ` (stopped after ${MAX_ENTRIES} entries)` : '';
  if (findings.length === 0)
    return check('system-permissions', 'ok', `managed folders and files are root's alone${truncated}`);
  const unsafe = findings.some((f) => !f.problem.startsWith('not readable'));
  const shown = findings.slice(0, SHOWN).map((f) => `${f.path} is ${f.problem}`);
  const more = findings.length > SHOWN ? `; and ${findings.length - SHOWN} more` : '';
  return check(
    'system-permissions',
    unsafe ? 'fail' : 'warn',
    `${shown.join('; ')}${more}${truncated}`,
    [...new Set(findings.map((f) => f.fix))].slice(0, 2 * SHOWN).join('\n'),
  );
}
