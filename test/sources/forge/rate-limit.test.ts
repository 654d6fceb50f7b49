import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appWindow,
  DEFAULT_WINDOW_MS,
  detectRateLimit,
  openWindow,
  recordAppWindow,
} from '../../../src/sources/forge/rate-limit.js';
import { createMemoryResolverStore } from '../../../src/sources/memory-store.js';

const now = new Date('2026-05-01T12:00:00Z');
const epoch = (d: Date): string => String(Math.floor(d.getTime() / 1000));

void describe('rate-limit detection', () => {
  void test('403 with x-ratelimit-remaining 0 ends at x-ratelimit-reset', () => {
    const reset = new Date('2026-05-01T12:30:00Z');
    const got = detectRateLimit(
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epoch(reset) },
      now,
    );
    assert.equal(got?.retryAt.toISOString(), reset.toISOString());
  });

  void test('Retry-After in seconds', () => {
    const got = detectRateLimit(429, { 'retry-after': '120' }, now);
    assert.equal(got?.retryAt.toISOString(), '2026-05-01T12:02:00.000Z');
  });

  void test('Retry-After as an HTTP date', () => {
    const got = detectRateLimit(429, { 'retry-after': 'Fri, 01 May 2026 13:15:00 GMT' }, now);
    assert.equal(got?.retryAt.toISOString(), '2026-05-01T13:15:00.000Z');
  });

  void test('ratelimit-reset as delta seconds (IETF) and as epoch (GitLab)', () => {
    assert.equal(
      detectRateLimit(429, { 'ratelimit-reset': '30' }, now)?.retryAt.toISOString(),
      '2026-05-01T12:00:30.000Z',
    );
    const at = new Date('2026-05-01T12:45:00Z');
    assert.equal(
      detectRateLimit(403, { 'ratelimit-reset': epoch(at) }, now)?.retryAt.toISOString(),
      at.toISOString(),
    );
  });

  void test('403 carrying only x-ratelimit-reset (no remaining count) is a limit', () => {
    const reset = new Date('2026-05-01T12:10:00Z');
    assert.ok(detectRateLimit(403, { 'x-ratelimit-reset': epoch(reset) }, now));
  });

  void test('a 403 without rate-limit signals is a plain failure', () => {
    assert.equal(detectRateLimit(403, {}, now), undefined);
    // GitHub sends these on every response: with requests left, a 403 is about something else.
    assert.equal(
      detectRateLimit(403, { 'x-ratelimit-remaining': '42', 'x-ratelimit-reset': epoch(now) }, now),
      undefined,
    );
    assert.equal(
      detectRateLimit(403, { 'ratelimit-remaining': '5', 'ratelimit-reset': epoch(now) }, now),
      undefined,
    );
  });

  void test('other statuses are never limits', () => {
    assert.equal(detectRateLimit(200, { 'x-ratelimit-remaining': '0' }, now), undefined);
    assert.equal(detectRateLimit(503, { 'retry-after': '10' }, now), undefined);
  });

  void test('a bare 429 opens the default one-hour window', () => {
    assert.equal(detectRateLimit(429, {}, now)?.retryAt.getTime(), now.getTime() + DEFAULT_WINDOW_MS);
  });

  void test('a reset already past still waits a little', () => {
    const got = detectRateLimit(
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': epoch(new Date(0)) },
      now,
    );
    assert.ok(got && got.retryAt.getTime() > now.getTime());
  });
});

void describe('rate-limit windows', () => {
  const limit = (iso: string, message = 'm') => ({ retryAt: new Date(iso), message });

  void test('an open window is returned, an expired one removed', () => {
    const store = createMemoryResolverStore();
    recordAppWindow(store, 'a', 'https://x/api', 'x', limit('2026-05-01T13:00:00Z'));
    assert.equal(openWindow(store, 'app:a', now)?.until, '2026-05-01T13:00:00.000Z');
    assert.equal(appWindow(store, 'a', 'https://x/api', now)?.host, 'x');
    assert.equal(appWindow(store, 'a', 'https://x/api', new Date('2026-05-01T13:00:01Z')), undefined);
    assert.equal(store.getRateLimit('app:a'), undefined);
  });

  void test('recording keeps the later end for the same URL; another URL replaces it', () => {
    const store = createMemoryResolverStore();
    recordAppWindow(store, 'a', 'https://x/1', 'x', limit('2026-05-01T14:00:00Z', 'late'));
    recordAppWindow(store, 'a', 'https://x/1', 'x', limit('2026-05-01T13:00:00Z', 'early'));
    assert.equal(store.getRateLimit('app:a')?.message, 'late');
    recordAppWindow(store, 'a', 'https://x/2', 'x', limit('2026-05-01T13:00:00Z', 'moved'));
    assert.equal(store.getRateLimit('app:a')?.message, 'moved');
  });

  void test("a window applies to its app's URL only; another URL drops it, as does one without a URL", () => {
    const store = createMemoryResolverStore();
    recordAppWindow(store, 'a', 'https://x/1', 'x', limit('2026-05-01T14:00:00Z'));
    assert.equal(appWindow(store, 'b', 'https://x/1', now), undefined, 'another app');
    assert.ok(appWindow(store, 'a', 'https://x/1', now));
    assert.equal(appWindow(store, 'a', 'https://x/other', now), undefined, 'the URL changed');
    assert.equal(store.getRateLimit('app:a'), undefined);
    store.setRateLimit('app:a', { until: '2026-05-01T14:00:00Z', message: 'from an older version' });
    assert.equal(appWindow(store, 'a', 'https://x/1', now), undefined);
  });
});
