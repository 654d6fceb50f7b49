/**
 * The one way a moment is written in human output: `2026-11-23 03:00 UTC`. UTC, because the same run
 * is read from timers, logs and other machines; minutes, because no retry or reset is more precise.
 * JSON keeps full ISO 8601 timestamps.
 */
export function timeText(d: Date): string {
  return `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
