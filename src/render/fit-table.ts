import { displayWidth, shortenMiddle, truncateEnd } from './display-width.js';

/** How one column of a table gives way when the table is wider than the terminal. */
export interface ColumnFit {
  /** How a cell too wide for its column is cut: `middle` (paths), `end` (names, versions); absent: never. */
  shorten?: 'middle' | 'end';
  /** Narrowest the column is cut to (default: never cut). */
  min?: number;
  /** When even the narrowest layout is too wide, columns are hidden in ascending order of this (absent: never hidden). */
  hideRank?: number;
}

/** A table made to fit: the rows with cut cells and without hidden columns, and how many columns were hidden. */
export interface FittedTable {
  rows: string[][];
  hidden: number;
}

// Two spaces between columns, as `table` lays them out.
const GAP = 2;
// Narrowest a shrinking column gets when the terminal is too narrow even for every `min`.
const HARD_MIN = 4;

function lineWidth(widths: number[], visible: number[]): number {
  return visible.reduce((sum, i) => sum + (widths[i] ?? 0), 0) + GAP * Math.max(0, visible.length - 1);
}

// Cut the widest column above its floor by one cell (the rightmost of equals) until the line fits.
function shrinkWidest(widths: number[], floor: number[], visible: number[], width: number): void {
  for (let excess = lineWidth(widths, visible) - width; excess > 0; excess--) {
    let widest: number | undefined;
    for (const i of visible) {
      if ((widths[i] ?? 0) <= (floor[i] ?? 0)) continue;
      if (widest === undefined || (widths[i] ?? 0) >= (widths[widest] ?? 0)) widest = i;
    }
    if (widest === undefined) return;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
}

/**
 * Fits rows (the first is the header) into `width` cells: first hides columns by `hideRank` until the
 * narrowest layout fits, then cuts the widest shrinking column one cell at a time (the rightmost of
 * equals), never below its `min`, until the rows fit. Cells that shrink must be plain text (no colour).
 */
export function fitTable(rows: string[][], fits: readonly ColumnFit[], width: number): FittedTable {
  const count = fits.length;
  const natural = fits.map((_, i) => Math.max(0, ...rows.map((r) => displayWidth(r[i] ?? ''))));
  const narrowest = fits.map((f, i) =>
    f.shorten && f.min !== undefined ? Math.min(natural[i] ?? 0, f.min) : (natural[i] ?? 0),
  );
  let visible = [...Array(count).keys()];
  const hideOrder = visible
    .filter((i) => fits[i]?.hideRank !== undefined)
    .sort((a, b) => (fits[a]?.hideRank ?? 0) - (fits[b]?.hideRank ?? 0));
  let hidden = 0;
  for (const i of hideOrder) {
    if (lineWidth(narrowest, visible) <= width) break;
    visible = visible.filter((v) => v !== i);
    hidden++;
  }
  const widths = [...natural];
  // Past every column's `min` (a terminal too narrow even for that), cut on down to a few cells.
  const lastResort = fits.map((f, i) =>
    f.shorten ? Math.min(natural[i] ?? 0, HARD_MIN) : (natural[i] ?? 0),
  );
  for (const floor of [narrowest, lastResort]) shrinkWidest(widths, floor, visible, width);
  const cut = (cell: string, i: number): string => {
    const how = fits[i]?.shorten;
    const w = widths[i] ?? 0;
    if (!how || displayWidth(cell) <= w) return cell;
    return how === 'middle' ? shortenMiddle(cell, w) : truncateEnd(cell, w);
  };
  return { rows: rows.map((row) => visible.map((i) => cut(row[i] ?? '', i))), hidden };
}
