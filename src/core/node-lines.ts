/**
 * Node.js release lines and the day each reaches end of life (https://github.com/nodejs/Release),
 * the one table `doctor` and `--version --verbose` read and docs/install.md cites. Odd lines are
 * never LTS and end six months after they start. Update it when a line is added or a date moves.
 */
export const NODE_RELEASE_LINES: readonly { line: number; endOfLife: string }[] = [
  { line: 18, endOfLife: '2025-04-30' },
  { line: 19, endOfLife: '2023-06-01' },
  { line: 20, endOfLife: '2026-04-30' },
  { line: 21, endOfLife: '2024-06-01' },
  { line: 22, endOfLife: '2027-04-30' },
  { line: 23, endOfLife: '2025-06-01' },
  { line: 24, endOfLife: '2028-04-30' },
  { line: 25, endOfLife: '2026-06-01' },
  { line: 26, endOfLife: '2029-04-30' },
];

/** Where a Node.js version's line stands on `now`. */
export interface NodeLineStatus {
  line: number;
  /** The end-of-life day (YYYY-MM-DD), unknown for a line older or newer than the table. */
  endOfLife: string | undefined;
  pastEndOfLife: boolean;
}

/** The status of `version` (`v24.1.0` or `24.1.0`) on `now`; a line older than the table is past. */
export function nodeLineStatus(version: string, now: Date): NodeLineStatus {
  const line = Number(/^v?(\d+)\./.exec(version)?.[1] ?? NaN);
  const known = NODE_RELEASE_LINES.find((l) => l.line === line);
  if (!known) {
    const oldest = Math.min(...NODE_RELEASE_LINES.map((l) => l.line));
    return { line, endOfLife: undefined, pastEndOfLife: Number.isFinite(line) && line < oldest };
  }
  // The line gets fixes through its end-of-life day (UTC).
  const past = now.getTime() >= Date.parse(`${known.endOfLife}T00:00:00Z`) + 86_400_000;
  return { line, endOfLife: known.endOfLife, pastEndOfLife: past };
}

/** The long-term-support (even) lines not yet past end of life on `now`, oldest first. */
export function supportedLtsLines(now: Date): number[] {
  return NODE_RELEASE_LINES.filter((l) => l.line % 2 === 0)
    .map((l) => l.line)
    .filter((line) => !nodeLineStatus(`${line}.0.0`, now).pastEndOfLife)
    .sort((a, b) => a - b);
}
