/**
 * Conditional GETs keyed by URL: the validators of the last 2xx answer are sent back
 * (If-None-Match, else If-Modified-Since) and a 304 replays the stored body. It belongs to no
 * app: per-app rate-limit windows live apart (sources/forge/rate-limit.ts), so a fetch that is
 * not an app's (add's lookup, a catalogue) uses the same cache.
 */
import type { CachedResponse } from '../state/cached-response.js';
import { request, type HttpRequestOptions, type HttpResponse } from './http.js';
import type { HttpSettings } from './settings.js';

export type { CachedResponse };

/** Where conditional answers are kept, keyed by URL (state's cache file, or memory in tests). */
export interface ConditionalCache {
  getCached(url: string): CachedResponse | undefined;
  setCached(url: string, entry: CachedResponse): void;
}

/** A 2xx body (fresh or replayed from the cache), or any other answer left to the caller. */
export type ConditionalResult =
  | { kind: 'ok'; body: unknown; notModified: boolean; res: HttpResponse }
  | { kind: 'other'; res: HttpResponse };

/**
 * GETs `url` as JSON, conditionally when `cache` holds validators for it; a 2xx answer with a
 * validator refreshes the entry (stamped `now`). Statuses other than 2xx and a 304 without an
 * entry come back as `other`.
 */
export async function conditionalGetJson(
  http: HttpSettings,
  url: string,
  cache: ConditionalCache | undefined,
  now: Date,
  options: HttpRequestOptions = {},
): Promise<ConditionalResult> {
  const cached = cache?.getCached(url);
  const headers: Record<string, string> = { ...options.headers };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  else if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  const res = await request(http, url, { ...options, headers });
  if (res.status === 304 && cached) return { kind: 'ok', body: cached.body, notModified: true, res };
  if (res.status < 200 || res.status >= 300) return { kind: 'other', res };
  const body = res.json();
  if (cache && (res.headers.etag || res.headers['last-modified'])) {
    cache.setCached(url, {
      etag: res.headers.etag,
      lastModified: res.headers['last-modified'],
      body,
      fetchedAt: now.toISOString(),
    });
  }
  return { kind: 'ok', body, notModified: false, res };
}
