import type { AppInfo } from '../app/info.js';
import type { Output } from './output.js';
import { termMessage, termPath, termText } from './terminal-text.js';
import { timeText } from '../core/time-text.js';

// An ISO time from state as local time; anything else (a hand-edited state) as text.
function when(iso: string | undefined): string {
  if (!iso) return '-';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? termText(iso, 40) : timeText(d);
}

// The strategy's one line: what it follows and which asset it takes.
function sourceText(strategy: unknown): string {
  if (typeof strategy !== 'object' || strategy === null) return '-';
  const s = strategy as Record<string, unknown>;
  const where = [s.repository, s.url, s.script_path].find((v) => typeof v === 'string');
  const asset = [s.asset_match, s.asset_regex].find((v) => typeof v === 'string');
  const words = [String(s.strategy), where, asset === undefined ? undefined : `(${asset})`];
  return termText(words.filter((w) => w !== undefined).join(' '), 300);
}

/**
 * The ten lines of a plain `info APP`: where it comes from, what is installed and what is latest,
 * its file and desktop entry, the last check and error, the hold, the recipe. `-v` and `--json`
 * give the full record.
 */
export function infoSummaryLines(info: AppInfo, c: Output['c']): string[] {
  const row = (label: string, value: string): string => `  ${label.padEnd(15)} ${value}`;
  const st = info.state;
  const strategy = info.settings.find((s) => s.key === 'strategy')?.value;
  const installed = st?.installed;
  const latest = st?.latest;
  const error = st?.lastError;
  return [
    c.bold(termText(info.name)),
    row(
      'source',
      strategy === undefined ? (st?.strategy ? termText(st.strategy) : '-') : sourceText(strategy),
    ),
    row(
      'installed',
      installed
        ? `${termText(installed.version)} (${when(installed.installedAt)})`
        : st?.removedAt
          ? `removed ${when(st.removedAt)}`
          : 'not installed',
    ),
    row(
      'latest',
      latest ? `${termText(latest.version)} (seen ${when(latest.checkedAt)})` : 'not checked yet',
    ),
    row('file', installed ? termPath(installed.file) : '-'),
    row('desktop entry', st?.integration ? termPath(st.integration.desktopFile) : '-'),
    row('last check', when(st?.lastCheck)),
    row(
      'last error',
      error ? c.red(`${termText(error.code, 60)}: ${termMessage(error.message)} (${when(error.at)})`) : '-',
    ),
    row('hold', st?.hold ? c.yellow('yes (after a rollback; unhold APP resumes updates)') : 'no'),
    row(
      'recipe',
      info.recipe
        ? `${termPath(info.recipe.file)} (${info.recipe.valid ? 'valid' : c.red('invalid')})`
        : c.yellow('none (only in state: its recipe is gone)'),
    ),
  ];
}
