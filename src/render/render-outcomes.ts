import type { AppOutcome, Summary } from '../app/outcome.js';
import type { Output } from './output.js';
import { formatBytes } from './table.js';
import { problemText } from './render-error.js';
import { termMessage, termPath, termText } from './terminal-text.js';
import { timeText } from '../core/time-text.js';
import { countOf } from '../core/plural.js';

/**
 * Where the desktop entry went: always when none was installed or our own id replaced the upstream
 * one (both are worth knowing), with --verbose also when the upstream id was used.
 */
function desktopLines(o: AppOutcome, out: Output): string[] {
  const d = o.desktop;
  if (!d) return [];
  const { c } = out;
  if (d.skipped) {
    // A reason that is already a warning is not repeated.
    return o.warnings.some((w) => w.includes(d.skipped ?? ''))
      ? []
      : [c.dim(`             no desktop entry: ${termMessage(d.skipped)}`)];
  }
  if (d.fallback_reason) {
    return [
      c.dim(
        `             desktop entry ${termText(d.id ?? '?')}.desktop (not ${termText(d.upstream_id ?? 'the upstream id')}: ${termMessage(d.fallback_reason)})`,
      ),
    ];
  }
  return out.verbose
    ? [c.dim(`             desktop entry ${termText(d.id ?? '?')}.desktop (the AppImage's own id)`)]
    : [];
}

/**
 * How the file came, in words: `full download`, `4 connections`, or `delta, 93% reused` (zsync and
 * blockmap are both deltas; the share is of the new file's bytes that came from the old one).
 */
export function methodText(
  o: Pick<AppOutcome, 'method' | 'connections' | 'bytes_downloaded' | 'bytes_reused'>,
): string | undefined {
  switch (o.method) {
    case undefined:
      return undefined;
    case 'zsync':
    case 'blockmap': {
      const reused = o.bytes_reused ?? 0;
      const total = reused + (o.bytes_downloaded ?? 0);
      return total > 0 ? `delta, ${Math.floor((reused / total) * 100)}% reused` : 'delta';
    }
    case 'segmented':
      return o.connections !== undefined && o.connections > 1
        ? `${o.connections} connections`
        : 'full download';
    default:
      return 'full download';
  }
}

function heldText(o: AppOutcome, out: Output): string {
  return o.held ? ` ${out.c.yellow('(held)')}` : '';
}

/**
 * `1.0 → 2.0`; the same version on both sides is a rebuilt or re-uploaded asset under one tag, which
 * an arrow between two equal words does not explain.
 */
function change(from: string | null, to: string | null, fresh: string): string {
  if (from !== null && from === to) return `new build of ${to}`;
  return `${from ?? fresh} → ${to ?? '?'}`;
}

// Reasons to download that the versions already tell.
const PLAIN_REASONS = new Set(['new version', 'not installed']);

/** One human line (plus indented details) for an app's outcome. */
export function outcomeLine(o: AppOutcome, out: Output): string {
  const { c } = out;
  const name = c.bold(termText(o.name));
  // Versions, paths, URLs and messages come from forges, servers, scripts and file systems.
  const from = o.from_version === null ? null : termText(o.from_version);
  const to = o.to_version === null ? null : termText(o.to_version);
  const reason = o.reason === undefined ? undefined : termMessage(o.reason);
  const lines: string[] = [];
  switch (o.status) {
    case 'updated': {
      const how = [
        o.bytes_downloaded !== undefined ? formatBytes(o.bytes_downloaded) : undefined,
        methodText(o),
        o.via_proxy ? `via proxy ${termPath(o.via_proxy)}` : undefined,
      ].filter(Boolean);
      lines.push(
        `${c.green('updated')}      ${name} ${change(from, to, '(new)')}${how.length ? c.dim(`  (${how.join(', ')})`) : ''}`,
      );
      if (o.path) lines.push(c.dim(`             ${termPath(o.path)}`));
      lines.push(...desktopLines(o, out));
      break;
    }
    case 'up_to_date':
      lines.push(`${c.dim('up to date')}   ${name} ${to ?? from ?? ''}${heldText(o, out)}`);
      break;
    case 'update_available':
      lines.push(
        `${c.cyan('available')}    ${name} ${change(from, to, '(not installed)')}${heldText(o, out)}${o.via_proxy ? c.dim(`  (via proxy ${termPath(o.via_proxy)})`) : ''}`,
      );
      break;
    case 'deferred':
      lines.push(`${c.yellow('deferred')}     ${name}${reason ? `: ${reason}` : ''}${heldText(o, out)}`);
      break;
    case 'rate_limited':
      lines.push(
        `${c.yellow('rate limited')} ${name}${o.retry_at ? ` until ${timeText(new Date(o.retry_at))}` : ''}`,
      );
      if (reason) lines.push(c.dim(`             ${reason}`));
      break;
    case 'skipped':
      if (o.skip === 'dry_run') {
        // Not skipped in the user's words: it is exactly what `update` would do.
        const why = o.because && !PLAIN_REASONS.has(o.because) ? c.dim(`  (${termMessage(o.because)})`) : '';
        const same = from !== null && from === to && o.because !== 'new version';
        lines.push(
          `${c.cyan('would update')} ${name} ${same ? (to ?? '') : change(from, to, '(new)')}${why}`,
        );
        if (o.url) lines.push(c.dim(`             ${termPath(o.url)}`));
        break;
      }
      lines.push(`${c.dim('skipped')}      ${name}${reason ? c.dim(`  ${reason}`) : ''}`);
      break;
    case 'offline':
      lines.push(`${c.yellow('offline')}      ${name}${from ? c.dim(`  ${from} stays installed`) : ''}`);
      break;
    case 'interrupted':
      lines.push(`${c.yellow('interrupted')}  ${name}${from ? c.dim(`  ${from} stays installed`) : ''}`);
      break;
    case 'failed':
      lines.push(
        `${c.red('failed')}       ${name}: ${problemText(o.error?.message ?? 'unknown error', o.error?.issues, ' '.repeat(15))}`,
      );
      if (o.error?.hint) lines.push(c.dim(`             hint: ${termMessage(o.error.hint)}`));
      if (from) lines.push(c.dim(`             ${from} stays installed`));
      break;
  }
  // A warning already printed live on stderr during the run is not repeated.
  for (const w of o.warnings.filter((x) => !out.warned(x, o.name)))
    lines.push(`             ${c.yellow('warning:')} ${termMessage(w)}`);
  return lines.join('\n');
}

// At most this many skipped apps are named in the summary line.
const NAMED_SKIPS = 5;

/** `removed: a; ignored: b`: who was skipped and why, for apps the listing left out. */
function skippedNames(skipped: readonly AppOutcome[]): string {
  const groups = new Map<string, string[]>();
  for (const o of skipped.slice(0, NAMED_SKIPS)) {
    const why = o.skip ?? 'skipped';
    groups.set(why, [...(groups.get(why) ?? []), termText(o.name)]);
  }
  const text = [...groups].map(([why, names]) => `${why}: ${names.join(', ')}`).join('; ');
  return skipped.length > NAMED_SKIPS ? `${text}; …` : text;
}

/**
 * The summary line; it always counts every selected app. Given the outcomes, a dry run's apps count
 * as "would update" and the other skipped apps are named, so a count never stands for nobody.
 */
export function summaryLine(
  summary: Summary,
  command: 'check' | 'update',
  extra: string[] = [],
  outcomes: readonly AppOutcome[] = [],
): string {
  const wouldUpdate = outcomes.filter((o) => o.status === 'skipped' && o.skip === 'dry_run').length;
  const skipped = outcomes.filter((o) => o.status === 'skipped' && o.skip !== 'dry_run');
  const parts =
    command === 'check'
      ? [`${countOf(summary.update_available, 'update')} available`, `${summary.up_to_date} up to date`]
      : [
          wouldUpdate > 0 ? `${wouldUpdate} would update` : `${summary.updated} updated`,
          `${summary.up_to_date} up to date`,
        ];
  if (summary.deferred > 0) parts.push(`${summary.deferred} deferred`);
  const skippedCount = summary.skipped - wouldUpdate;
  parts.push(
    `${summary.rate_limited} rate-limited`,
    `${summary.failed} failed`,
    `${skippedCount} skipped${skipped.length > 0 ? ` (${skippedNames(skipped)})` : ''}`,
  );
  if (summary.interrupted > 0) parts.push(`${summary.interrupted} interrupted`);
  if (summary.offline > 0) parts.push(`${summary.offline} offline`);
  return [parts.join(', '), ...extra].join(' · ');
}
