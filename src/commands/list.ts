import { readFile, stat } from 'node:fs/promises';
import { entryExists, pathExists } from '../core/path-exists.js';
import type { Context } from '../context/context.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { formatBytes, table } from '../render/table.js';
import { errorJson } from '../render/render-error.js';
import { provenanceJson, provenanceWord } from '../render/provenance-json.js';
import { signatureJson } from '../render/signature-json.js';
import { termPath, termText, tildePath } from '../render/terminal-text.js';
import { fitTable, type ColumnFit } from '../render/fit-table.js';
import { truncateEnd } from '../render/display-width.js';
import { systemApps, systemAppsText } from './list-system.js';
import { FIRST_APP_WAYS } from '../render/setup-hints.js';

async function present(path: string | undefined, follow = true): Promise<boolean> {
  if (!path) return false;
  return follow ? pathExists(path) : entryExists(path);
}

/** True when the desktop file exists and its mark names `app` (another app's or a foreign file is not). */
async function ownsDesktopFile(path: string | undefined, app: string): Promise<boolean> {
  if (!path) return false;
  const text = await readFile(path, 'utf8').catch(() => undefined);
  const { markOf } = await import('../install/desktop-target.js');
  return text !== undefined && markOf(text) === app;
}

/** What of an app's files is on disk. */
interface DiskFacts {
  fileSize: number | undefined;
  desktopPresent: boolean;
  desktopOurs: boolean;
  symlinkPresent: boolean;
  symlinkDangling: boolean;
}

const NOTHING_ON_DISK: DiskFacts = {
  fileSize: undefined,
  desktopPresent: false,
  desktopOurs: false,
  symlinkPresent: false,
  symlinkDangling: false,
};

/** Looks at the files state names for an app; an app with none (not installed) costs nothing. */
async function onDisk(
  file: string | undefined,
  desktop: string | undefined,
  link: string | undefined,
  app: string,
): Promise<DiskFacts> {
  if (!file && !desktop && !link) return NOTHING_ON_DISK;
  const fileStat = file ? await stat(file).catch(() => undefined) : undefined;
  const symlinkPresent = await present(link);
  return {
    fileSize: fileStat?.size,
    desktopPresent: await present(desktop),
    desktopOurs: await ownsDesktopFile(desktop, app),
    symlinkPresent,
    // As doctor: a link that leads nowhere is not a working symlink.
    symlinkDangling: (await present(link, false)) && !symlinkPresent,
  };
}

/**
 * How each column gives way on a narrow terminal (same order as the header): the file path is cut
 * in the middle, name and version at the end, each widest first; when even that is too wide, the
 * columns least needed at a glance are hidden first (CHECKED, then ATTESTED, STRATEGY, SYMLINK,
 * DESKTOP, UPDATED, SIZE). NAME, VERSION, STATUS and FILE always stay.
 */
const COLUMN_FITS: readonly ColumnFit[] = [
  { shorten: 'end', min: 16 },
  { hideRank: 3 },
  { shorten: 'end', min: 14 },
  { hideRank: 7 },
  { hideRank: 1 },
  { hideRank: 6 },
  { hideRank: 5 },
  { hideRank: 4 },
  { hideRank: 2 },
  {},
  { shorten: 'middle', min: 32 },
];

// A day is enough in a table; --json has the full timestamps.
function day(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '-';
}

/** Flags of `list`. */
interface ListFlags {
  names?: boolean;
  wide?: boolean;
}

/** `list`: every recipe with what is installed for it; reads state, never writes or locks. */
async function listCommand(ctx: Context, out: Output, opts: ListFlags): Promise<CommandResult> {
  const { loadWorkspace } = await import('../config/workspace.js');
  const { StateStore } = await import('../state/store.js');
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
      const disk = await onDisk(file, s?.integration?.desktopFile, s?.symlink, app.name);
      return {
        name: app.name,
        recipe: app.file,
        valid: app.ok,
        strategy: app.ok ? app.settings.strategy.strategy : (s?.strategy ?? null),
        ignored: app.ok ? app.settings.ignore : false,
        held: s?.hold === true,
        removed: s?.removedAt !== undefined,
        version: s?.installed?.version ?? null,
        previous_version: s?.previous?.version ?? null,
        path: file ?? null,
        file_present: disk.fileSize !== undefined,
        size: disk.fileSize ?? null,
        integration: app.ok ? app.settings.manage_desktop_files : null,
        desktop_entry: s?.integration?.desktopFile ?? null,
        desktop_entry_present: disk.desktopPresent,
        desktop_entry_ours: disk.desktopOurs,
        symlink: s?.symlink ?? null,
        symlink_present: disk.symlinkPresent,
        symlink_dangling: disk.symlinkDangling,
        last_check: s?.lastCheck ?? null,
        last_update: s?.lastUpdate ?? null,
        last_error: s?.lastError ?? null,
        provenance: provenanceJson(s?.installed?.provenance),
        attested: provenanceWord(s?.installed?.provenance),
        signature: signatureJson(s?.signature),
        error: app.ok ? null : errorJson(app.error),
      };
    }),
  );
  const { c } = out;
  // On a terminal the table fits its width; piped output and --wide stay complete (scripts read them).
  const width = opts.wide ? undefined : out.columns;
  const showPath = (path: string): string =>
    termPath(width === undefined ? path : tildePath(path, ctx.paths.home));
  const rows = [
    [
      'NAME',
      'STRATEGY',
      'VERSION',
      'SIZE',
      'CHECKED',
      'UPDATED',
      'DESKTOP',
      'SYMLINK',
      'ATTESTED',
      'STATUS',
      'FILE',
    ].map((h) => c.bold(h)),
  ];
  for (const a of apps) {
    const status = !a.valid
      ? c.red('invalid recipe')
      : a.ignored
        ? c.dim('ignored')
        : a.removed
          ? c.dim('removed')
          : a.held
            ? c.yellow('held')
            : a.path && !a.file_present
              ? c.red('file missing')
              : a.version && a.last_error
                ? c.red('last check failed')
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
      a.desktop_entry
        ? !a.desktop_entry_present
          ? c.red('missing')
          : a.desktop_entry_ours
            ? 'yes'
            : c.red('not ours')
        : a.integration
          ? '-'
          : 'off',
      a.symlink ? (a.symlink_present ? 'yes' : c.red(a.symlink_dangling ? 'dangling' : 'missing')) : '-',
      a.attested,
      status,
      a.path === null ? '-' : showPath(a.path),
    ]);
  }
  const own = apps.length
    ? fittedTable(rows, width, c.dim)
    : `no recipes in ${termPath(ctx.paths.appsDir)}; ${FIRST_APP_WAYS}`;
  const shared = await systemApps(ctx);
  const human = shared.length ? `${own}\n\n${systemAppsText(shared, c.bold)}` : own;
  // Only present when the system has apps: a per-user document is unchanged otherwise.
  const json = { command: 'list', apps, ...(shared.length ? { system_apps: shared } : {}) };
  return { exitCode: 0, json, human };
}

// The table as it fits `width` cells (undefined: as it is), with a note when columns were hidden.
function fittedTable(rows: string[][], width: number | undefined, dim: (s: string) => string): string {
  if (width === undefined) return table(rows);
  const fitted = fitTable(rows, COLUMN_FITS, width);
  if (fitted.hidden === 0) return table(fitted.rows);
  const note = `${fitted.hidden} ${fitted.hidden === 1 ? 'column' : 'columns'} hidden to fit; --wide shows all`;
  return `${table(fitted.rows)}\n${dim(truncateEnd(note, width))}`;
}

/** `list`: the apps and what is installed for each. */
export const list = defineCommand<[], ListFlags>({
  name: 'list',
  summary: 'list apps with their installed version, file and integration',
  arguments: [],
  flags: [
    { flags: '--wide', description: 'on a terminal too: every column, full paths, nothing shortened' },
    { flags: '--names', description: 'print app names only (for shell completion)', hidden: true },
  ],
  examples: [
    ['appimage-keeper list', 'apps, versions, files and desktop integration, fitted to the terminal'],
    ['appimage-keeper list --wide', 'every column and full paths, even if lines wrap'],
    ['appimage-keeper --json list', 'the same as one JSON document'],
  ],
  handler: ({ ctx, output, flags }) => listCommand(ctx(), output(), flags),
});
