/**
 * Recognises rate-limit responses (GitHub primary and secondary limits, GitLab and IETF
 * `RateLimit-*` headers, plain `Retry-After`) and keeps the windows they open in the store.
 */
import type { ResolverStore, RateLimitWindow } from '../types.js';
import { timeText } from '../../core/time-text.js';

/** A rate limit read from one response. */
export interface DetectedRateLimit {
  retryAt: Date;
  message: string;
}

/** Window used when a limit gives no usable reset time. */
export const DEFAULT_WINDOW_MS = 60 * 60 * 1000;
/** A reset already in the past (clock skew) still waits this long. */
const MIN_WINDOW_MS = 60 * 1000;
/** `ratelimit-reset` values above this are epoch seconds (GitLab), below it delta seconds (IETF). */
const EPOCH_THRESHOLD = 1_000_000_000;

/**
 * Returns the limit a 403/429 response signals, or undefined. A 429 is always a limit; a 403 only
 * with a rate-limit header (or GitHub's "rate limit" message), so a plain 403 stays an error.
 */
export function detectRateLimit(
  status: number,
  headers: Record<string, string>,
  now: Date,
  body = '',
): DetectedRateLimit | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const remaining = headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining'];
  const exhausted = remaining !== undefined && Number(remaining.trim()) === 0;
  const ends: number[] = [];
  const retryAfter = parseRetryAfter(headers['retry-after'], now);
  if (retryAfter !== undefined) ends.push(retryAfter);
  const xReset = headers['x-ratelimit-reset'];
  // GitHub sends x-ratelimit-reset on every response; it only explains a 403 when nothing is left.
  const xResetCounts = xReset !== undefined && (exhausted || headers['x-ratelimit-remaining'] === undefined);
  if (xResetCounts) {
    const epoch = Number(xReset.trim());
    if (Number.isFinite(epoch) && epoch > 0) ends.push(epoch * 1000);
  }
  const reset = headers['ratelimit-reset'];
  const resetCounts = reset !== undefined && (exhausted || headers['ratelimit-remaining'] === undefined);
  if (resetCounts) {
    const value = Number(reset.trim());
    if (Number.isFinite(value) && value >= 0) {
      ends.push(value > EPOCH_THRESHOLD ? value * 1000 : now.getTime() + value * 1000);
    }
  }
  const signalled =
    status === 429 ||
    exhausted ||
    retryAfter !== undefined ||
    xResetCounts ||
    resetCounts ||
    /rate limit/i.test(body);
  if (!signalled) return undefined;
  const nowMs = now.getTime();
  let end = ends.length > 0 ? Math.max(...ends) : nowMs + DEFAULT_WINDOW_MS;
  if (end <= nowMs) end = nowMs + MIN_WINDOW_MS;
  const retryAt = new Date(end);
  return { retryAt, message: `HTTP ${status}: rate limit reached until ${timeText(retryAt)}` };
}

/** Parses `Retry-After` as delta seconds or an HTTP date; epoch milliseconds or undefined. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return now.getTime() + Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

/** Store key of an app's window. */
export function appKey(name: string): string {
  return `app:${name}`;
}

/** The still-open window under `key`; an expired one is removed. */
export function openWindow(store: ResolverStore, key: string, now: Date): RateLimitWindow | undefined {
  const window = store.getRateLimit(key);
  if (!window) return undefined;
  const until = Date.parse(window.until);
  if (Number.isNaN(until) || until <= now.getTime()) {
    store.clearRateLimit(key);
    return undefined;
  }
  return window;
}

/**
 * The open window that keeps `app` from requesting `url`. A window belongs to the app that was
 * answered with the limit and to the URL it asked then: other apps on that host still send their
 * own request, and once the app asks another URL (a new repository, another API base) the old
 * window is dropped. Windows without a URL (older state files) are dropped too.
 */
export function appWindow(
  store: ResolverStore,
  app: string,
  url: string,
  now: Date,
): RateLimitWindow | undefined {
  const key = appKey(app);
  const window = openWindow(store, key, now);
  if (!window || window.url === url) return window;
  store.clearRateLimit(key);
  return undefined;
}

/**
 * Records the window `limit` opens for `app` asking `url`, answered by `host`; an open window for
 * the same URL that ends later is kept.
 */
export function recordAppWindow(
  store: ResolverStore,
  app: string,
  url: string,
  host: string,
  limit: DetectedRateLimit,
): void {
  const key = appKey(app);
  const existing = store.getRateLimit(key);
  if (existing?.url === url && Date.parse(existing.until) > limit.retryAt.getTime()) return;
  store.setRateLimit(key, { until: limit.retryAt.toISOString(), message: limit.message, url, host });
}

/** Closes `app`'s window after a request that got a real answer. */
export function clearAppWindow(store: ResolverStore, app: string): void {
  store.clearRateLimit(appKey(app));
}
