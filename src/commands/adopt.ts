import type { Context } from '../context/context.js';
import { UsageError } from '../core/errors.js';
import type { AdoptRow } from '../app/adopt/adopt.js';
import type { AdoptMode } from '../app/adopt/take.js';
import type { Output } from '../render/output.js';
import type { CommandResult } from './result.js';
import { defineCommand } from './command-spec.js';
import { join } from 'node:path';
import { countOf } from '../core/plural.js';
import { truncateEnd } from '../render/display-width.js';
import { fitTable, type ColumnFit } from '../render/fit-table.js';
import { table } from '../render/table.js';
import { termMessage, termPath, termText, tildePath } from '../render/terminal-text.js';
import { runLocked } from './engine-run.js';
import { matchConfirm } from './adopt-confirm.js';

/** Flags of `adopt`. */
interface AdoptFlags {
  scan?: string;
  move?: boolean;
  copy?: boolean;
  inPlace?: boolean;
  name?: string;
  yes?: boolean;
  dryRun?: boolean;
  url?: string;
}

function modeOf(flags: AdoptFlags): AdoptMode {
  const chosen = [flags.move && 'move', flags.copy && 'copy', flags.inPlace && 'in-place'].filter(
    (m): m is AdoptMode => typeof m === 'string',
  );
  if (chosen.length > 1) throw new UsageError('USAGE', 'choose one of --move, --copy and --in-place');
  return chosen[0] ?? 'move';
}

function describeRow(row: AdoptRow): string {
  if (row.status === 'adopted' && row.result) return `${termPath(row.result.path)}`;
  if (row.status === 'managed') return `already managed as ${termText(row.managed_as ?? '')}`;
  if (row.error) return termMessage(`${row.error.code}: ${row.error.message}`);
  return termText(row.source ?? '', 400);
}

/**
 * How the plan's columns give way on a narrow terminal (as `list`'s do): paths are cut in the
 * middle, names and sources at the end; FILE, STATUS and APP always stay.
 */
const COLUMN_FITS: readonly ColumnFit[] = [
  { shorten: 'middle', min: 20 },
  {},
  { shorten: 'end', min: 8 },
  { shorten: 'middle', min: 16, hideRank: 2 },
  { shorten: 'end', min: 16, hideRank: 1 },
];

// `move → ~/Applications/krita.AppImage`, `copy → …`, `in place`.
function actionText(row: AdoptRow, path: (p: string) => string): string {
  if (!row.action || !row.destination) return '-';
  if (row.action === 'in-place') return 'in place';
  return `${row.action} → ${path(row.destination)}`;
}

function fitted(rows: string[][], width: number | undefined, dim: (s: string) => string): string {
  if (width === undefined) return table(rows);
  const fit = fitTable(rows, COLUMN_FITS, width);
  if (fit.hidden === 0) return table(fit.rows);
  const note = `${fit.hidden} ${fit.hidden === 1 ? 'column' : 'columns'} hidden to fit; --json shows all`;
  return `${table(fit.rows)}\n${dim(truncateEnd(note, width))}`;
}

/** `adopt FILE... | adopt --scan DIR`: take existing AppImages into management. */
async function adoptCommand(
  ctx: Context,
  out: Output,
  files: string[],
  flags: AdoptFlags,
  stdin: NodeJS.ReadableStream | undefined,
): Promise<CommandResult> {
  const mode = modeOf(flags);
  if ((flags.scan === undefined) === (files.length === 0)) {
    throw new UsageError('USAGE', 'name the AppImages to adopt, or a folder with --scan DIR (not both)');
  }
  if (flags.name !== undefined && (flags.scan !== undefined || files.length !== 1)) {
    throw new UsageError('USAGE', '--name applies to a single FILE');
  }
  if (flags.url !== undefined && (flags.scan !== undefined || files.length !== 1)) {
    throw new UsageError('USAGE', '--url names the source of a single FILE');
  }
  const scanning = flags.scan !== undefined;
  const act = flags.dryRun !== true && (!scanning || flags.yes === true);
  const { adoptFiles, scanForAppImages } = await import('../app/adopt/adopt.js');
  const rows = await runLocked(ctx, out, 'adopt', [], async (run, _entries, ws) => {
    const targets = scanning ? await scanForAppImages(flags.scan ?? '') : files;
    const confirm = matchConfirm(out, stdin, out.json);
    return adoptFiles(
      targets,
      { mode, act, name: flags.name, url: flags.url, yes: flags.yes === true, confirm },
      ws,
      run,
    );
  });
  const { c } = out;
  // On a terminal the table fits its width; piped output stays complete (scripts read it).
  const width = out.columns;
  const path = (p: string): string => termPath(width === undefined ? p : tildePath(p, ctx.paths.home));
  const head = ['FILE', 'STATUS', 'APP', 'ACTION', 'SOURCE / RESULT'];
  const body = rows.map((r) => [
    path(r.file),
    r.status === 'adopted'
      ? c.green(r.status)
      : r.status === 'planned' || r.status === 'managed'
        ? r.status
        : c.yellow(r.status),
    termText(r.name ?? '-'),
    r.status === 'managed' ? '-' : actionText(r, path),
    describeRow(r),
  ]);
  const lines = [fitted([head, ...body], width, c.dim)];
  for (const r of rows) {
    const label = termText(r.name ?? r.file);
    const retired = r.result?.retired.map((x) => x.from);
    for (const e of r.retire) {
      const moved = [e.entry, ...e.icons];
      const verb = retired
        ? moved.every((m) => retired.includes(m))
          ? 'retired'
          : 'partly retired'
        : 'retire';
      lines.push(
        c.dim(
          `  ${label}: ${verb} ${e.manager}'s ${termPath(e.entry)}${e.icons.length ? ` and ${countOf(e.icons.length, 'icon')}` : ''} (kept in ${termPath(join(ctx.paths.stateDir, 'retired'))}; remove puts it back)`,
        ),
      );
    }
    for (const n of [...r.notes, ...(r.result?.warnings.filter((w) => !r.notes.includes(w)) ?? [])])
      lines.push(c.dim(`  ${label}: ${termMessage(n)}`));
    for (const g of r.suggestions)
      lines.push(
        c.dim(
          `  ${label}: suggestion (${termText(g.catalogue)} entry "${termText(g.entry)}", by ${g.by}, not taken): ${termText(g.adopt, 600)}`,
        ),
      );
    if (r.error?.hint && r.suggestions.length === 0)
      lines.push(c.dim(`  ${termPath(r.file)}: ${termMessage(r.error.hint)}`));
  }
  if (!act && rows.some((r) => r.status === 'planned')) {
    lines.push(
      scanning && flags.dryRun !== true
        ? 'nothing was changed; run again with --yes to adopt'
        : 'dry run: nothing was changed',
    );
  }
  // A FILE named on the command line and not adopted (including a catalogue match left unconfirmed) fails.
  const failed = rows.some(
    (r) =>
      r.status === 'failed' ||
      (!scanning && (r.status === 'not_adoptable' || (act && r.status === 'planned'))),
  );
  return {
    exitCode: failed ? 1 : 0,
    json: { command: 'adopt', acted: act, mode, files: rows },
    human: lines.join('\n'),
  };
}

/** `adopt`: AppImages already on disk taken into management. */
export const adopt = defineCommand<[string[]], AdoptFlags>({
  name: 'adopt',
  summary:
    'take existing AppImages into management: recipes from their update information, AppStream data or a catalogue match',
  arguments: [{ name: '[files...]', description: 'AppImages to adopt' }],
  flags: [
    {
      flags: '--scan <dir>',
      description: 'plan the adoption of every AppImage in DIR (acts only with --yes)',
    },
    {
      flags: '--move',
      description: 'move each file into storage_dir under its recipe’s file name (default)',
    },
    { flags: '--copy', description: 'copy each file into storage_dir and leave the original' },
    { flags: '--in-place', description: 'leave each file where it is' },
    { flags: '--name <name>', description: 'app name for a single FILE (default: from its desktop entry)' },
    {
      flags: '--url <url>',
      description:
        'the source of a single FILE: anything `add` accepts (repository, owner/repo, download URL)',
    },
    {
      flags: '--yes',
      description: 'with --scan: adopt what the plan shows; take a catalogue match without asking',
    },
    { flags: '--dry-run', description: 'show the plan only; write nothing' },
  ],
  examples: [
    ['appimage-keeper adopt ~/Downloads/Obsidian-1.5.3.AppImage', 'manage an AppImage you already have'],
    [
      'appimage-keeper adopt ~/Downloads/Obsidian-1.5.3.AppImage --url https://github.com/obsidianmd/obsidian-releases',
      'and name its source when the file carries none',
    ],
    ['appimage-keeper adopt --scan ~/Applications', 'plan the adoption of a whole folder'],
  ],
  handler: ({ ctx, output, args: [files], flags, stdin }) =>
    adoptCommand(ctx(), output(), files, flags, stdin()),
});
