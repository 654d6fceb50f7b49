import { displayWidth } from './display-width.js';

/** Lays rows out in aligned columns (by terminal cells); the last column is never padded. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell));
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) =>
          i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - displayWidth(cell)),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Human size: 1.2 MB style (decimal units, like most download tools); `precise`: 1.23 MB. */
export function formatBytes(n: number, precise = false): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = -1;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  const decimals = precise ? (v < 10 ? 2 : v < 100 ? 1 : 0) : v < 10 ? 1 : 0;
  return `${v.toFixed(decimals)} ${units[u]}`;
}
