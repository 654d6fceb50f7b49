/**
 * A cached response body with its validators, replayed when the server answers 304. Declared in
 * state because the cache file stores it; the HTTP client (above state) re-exports it.
 */
export interface CachedResponse {
  etag?: string | undefined;
  lastModified?: string | undefined;
  body: unknown;
  /** ISO timestamp of the response that filled this entry. */
  fetchedAt: string;
}
