import { UsageError } from '../../core/errors.js';

/** When the timer fires: an `OnCalendar=` value and how much random delay spreads the load. */
export interface TimerSchedule {
  /** The `OnCalendar=` value written to the timer. */
  onCalendar: string;
  /** `RandomizedDelaySec=` in seconds. */
  randomizedDelaySec: number;
  /** What the user asked for, for status output. */
  label: string;
}

const SHORTHANDS: Record<string, number> = {
  hourly: 3600,
  daily: 86_400,
  weekly: 7 * 86_400,
  monthly: 30 * 86_400,
};

/** `--every` values shell completion offers (any `OnCalendar=` expression is accepted too). */
export const INTERVAL_SUGGESTIONS: readonly string[] = [...Object.keys(SHORTHANDS), '6h', '12h', '30m'];

/** An hour of jitter at most: enough to spread many machines, small enough to feel "daily". */
const MAX_DELAY_SEC = 3600;
/** Delay for a raw OnCalendar expression, whose period we do not try to compute. */
const RAW_CALENDAR_DELAY_SEC = 900;

function delayFor(periodSec: number): number {
  return Math.min(MAX_DELAY_SEC, Math.round(periodSec / 10));
}

/**
 * Parses `--every`: `daily` (default), `hourly`, `weekly`, `monthly`, `<N>h` with N dividing 24,
 * `<N>m` with N dividing 60, or any other value as a raw `OnCalendar=` expression. The divisibility
 * rule keeps the runs evenly spaced: systemd restarts a `0/5` hour repetition at midnight.
 */
export function parseInterval(every: string | undefined): TimerSchedule {
  const value = (every ?? 'daily').trim();
  if (!value || /[\n\r]/.test(value)) {
    throw new UsageError('SCHEDULE_INTERVAL', `invalid interval ${JSON.stringify(every ?? '')}`, {
      hint: 'use daily, weekly, 6h, 30m or an OnCalendar= expression',
    });
  }
  const shorthand = SHORTHANDS[value];
  if (shorthand !== undefined)
    return { onCalendar: value, randomizedDelaySec: delayFor(shorthand), label: value };
  const m = /^(\d+)\s*(h|m)$/.exec(value);
  if (m) {
    const n = Number(m[1]);
    const unit = m[2] === 'h' ? 'h' : 'm';
    const whole = unit === 'h' ? 24 : 60;
    if (n < 1 || n > whole || whole % n !== 0) {
      throw new UsageError('SCHEDULE_INTERVAL', `cannot run evenly every ${value}`, {
        hint:
          unit === 'h'
            ? 'hours must divide 24 (1, 2, 3, 4, 6, 8, 12, 24), or pass an OnCalendar= expression'
            : 'minutes must divide 60 (5, 10, 15, 20, 30, ...), or pass an OnCalendar= expression',
      });
    }
    if (unit === 'h') {
      const onCalendar = n === 24 ? 'daily' : `*-*-* 00/${n}:00:00`;
      return { onCalendar, randomizedDelaySec: delayFor(n * 3600), label: `every ${n}h` };
    }
    const onCalendar = n === 60 ? 'hourly' : `*-*-* *:00/${n}:00`;
    return { onCalendar, randomizedDelaySec: delayFor(n * 60), label: `every ${n}m` };
  }
  return { onCalendar: value, randomizedDelaySec: RAW_CALENDAR_DELAY_SEC, label: `OnCalendar=${value}` };
}

/**
 * The `--every` value that writes `onCalendar` again (undefined for the default, daily), so a hint
 * to rerun `schedule install` keeps the user's interval.
 */
export function everyFor(onCalendar: string): string | undefined {
  if (onCalendar === 'daily') return undefined;
  if (SHORTHANDS[onCalendar] !== undefined) return onCalendar;
  const hours = /^\*-\*-\* 00\/(\d+):00:00$/.exec(onCalendar)?.[1];
  if (hours) return `${hours}h`;
  const minutes = /^\*-\*-\* \*:00\/(\d+):00$/.exec(onCalendar)?.[1];
  if (minutes) return `${minutes}m`;
  return onCalendar;
}
