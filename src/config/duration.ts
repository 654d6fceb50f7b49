/**
 * The duration syntax of `min_release_age`: one whole number and one unit (`30m`, `12h`, `3d`,
 * `1w`), or `0` for none. One unit keeps the value readable in a diff and leaves nothing to guess
 * (no `1.5d`, no `1d12h`); the ceiling keeps the arithmetic far from the limits of a Date.
 */

const UNIT_SECONDS = { m: 60, h: 3600, d: 86_400, w: 604_800 } as const;

/** The longest accepted duration: a year. */
export const MAX_DURATION_SECONDS = 365 * 86_400;

// Bounded before the regular expression runs: nothing longer is a valid value.
const MAX_TEXT = 12;

/** Seconds of a duration like `3d`, or a message saying what is wrong with it. */
export function parseDuration(value: unknown): { seconds: number } | { error: string } {
  if (value === 0 || value === '0') return { seconds: 0 };
  if (typeof value !== 'string' || value.length > MAX_TEXT) {
    return { error: 'must be a duration like 30m, 12h, 3d or 1w (or 0 for none)' };
  }
  const match = /^\s*(\d{1,6})\s*([mhdw])\s*$/.exec(value);
  if (!match) return { error: 'must be a duration like 30m, 12h, 3d or 1w (or 0 for none)' };
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
  if (seconds > MAX_DURATION_SECONDS) return { error: 'must be at most 365d' };
  return { seconds };
}
