/**
 * The one way a moment is written in human output: `2026-11-23 03:00 UTC`. UTC, because the same run
 * is read from timers, logs and other machines; minutes, because no retry or reset is more precise.
 * JSON keeps full ISO 8601 timestamps.
 */
export function timeText(d: Date): string {
  return `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** A span of time in words for humans, its two largest units: `2 d 19 h`, `5 h`, `12 min`, `< 1 min`. */
export function spanText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return '< 1 min';
  const parts: [number, string][] = [
    [Math.floor(minutes / 1440), 'd'],
    [Math.floor((minutes % 1440) / 60), 'h'],
    [minutes % 60, 'min'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}
