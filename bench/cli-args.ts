/** Small helpers the benchmarks share. */

/**
 * `--smoke`: tiny sizes, one round, to show the benchmark still runs end to end (the test suite runs
 * every benchmark so, test/bench/smoke.test.ts); its figures mean nothing.
 */
export const SMOKE = process.argv.includes('--smoke');

/** The text after `--<name>` on the command line, or undefined. */
export function textArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * The number after `--<name>` on the command line; without it `smoke` under `--smoke`, else
 * `fallback`.
 */
export function numberArg(name: string, fallback: number, smoke = fallback): number {
  const text = textArg(name);
  if (text !== undefined) return Number(text);
  return SMOKE ? smoke : fallback;
}

/** The median of `values` (NaN when empty). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}
