import type { AppOutcome, Summary } from '../engine/outcome.js';
import type { Output } from './output.js';
import { formatBytes } from './table.js';
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
        o.method,
        o.bytes_reused ? `${formatBytes(o.bytes_reused)} reused` : undefined,
        o.via_proxy ? `via proxy ${termPath(o.via_proxy)}` : undefined,
      ].filter(Boolean);
      lines.push(
        `${c.green('updated')}      ${name} ${from ?? '(new)'} → ${to ?? '?'}${how.length ? c.dim(`  (${how.join(', ')})`) : ''}`,
      );
      if (o.path) lines.push(c.dim(`             ${termPath(o.path)}`));
      lines.push(...desktopLines(o, out));
      break;
    }
    case 'up_to_date':
      lines.push(`${c.dim('up to date')}   ${name} ${to ?? from ?? ''}`);
      break;
    case 'update_available':
      lines.push(
        `${c.cyan('available')}    ${name} ${from ?? '(not installed)'} → ${to ?? '?'}${o.via_proxy ? c.dim(`  (via proxy ${termPath(o.via_proxy)})`) : ''}`,
      );
      break;
    case 'rate_limited':
      lines.push(
        `${c.yellow('rate limited')} ${name}${o.retry_at ? ` until ${timeText(new Date(o.retry_at))}` : ''}`,
      );
      if (reason) lines.push(c.dim(`             ${reason}`));
      break;
    case 'skipped':
      lines.push(`${c.dim('skipped')}      ${name}${reason ? c.dim(`  ${reason}`) : ''}`);
      if (o.url && o.reason?.startsWith('dry run')) {
        lines.push(c.dim(`             ${from ?? '(new)'} → ${to ?? '?'}  ${termPath(o.url)}`));
      }
      break;
    case 'interrupted':
      lines.push(`${c.yellow('interrupted')}  ${name}${from ? c.dim(`  ${from} stays installed`) : ''}`);
      break;
    case 'failed':
      lines.push(`${c.red('failed')}       ${name}: ${termMessage(o.error?.message ?? 'unknown error')}`);
      if (o.error?.hint) lines.push(c.dim(`             hint: ${termMessage(o.error.hint)}`));
      if (from) lines.push(c.dim(`             ${from} stays installed`));
      break;
  }
  // A warning already printed live on stderr during the run is not repeated.
  for (const w of o.warnings.filter((x) => !out.warned(x, o.name)))
    lines.push(`             ${c.yellow('warning:')} ${termMessage(w)}`);
  return lines.join('\n');
}

/** The summary line; it always counts every selected app. */
export function summaryLine(summary: Summary, command: 'check' | 'update', extra: string[] = []): string {
  const parts =
    command === 'check'
      ? [`${countOf(summary.update_available, 'update')} available`, `${summary.up_to_date} up to date`]
      : [`${summary.updated} updated`, `${summary.up_to_date} up to date`];
  parts.push(
    `${summary.rate_limited} rate-limited`,
    `${summary.failed} failed`,
    `${summary.skipped} skipped`,
  );
  if (summary.interrupted > 0) parts.push(`${summary.interrupted} interrupted`);
  return [parts.join(', '), ...extra].join(' · ');
}
