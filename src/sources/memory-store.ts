/** An in-memory ResolverStore: for tests, and the shape the engine's state-backed store follows. */
import type { CachedResponse, DetectedForgeKind, RateLimitWindow, ResolverStore } from './types.js';

/** Creates an empty store that lives as long as the returned object. */
export function createMemoryResolverStore(): ResolverStore {
  const cache = new Map<string, CachedResponse>();
  const forges = new Map<string, DetectedForgeKind>();
  const windows = new Map<string, RateLimitWindow>();
  return {
    getCached: (url) => cache.get(url),
    setCached: (url, entry) => void cache.set(url, entry),
    getForgeKind: (origin) => forges.get(origin),
    setForgeKind: (origin, kind) => void forges.set(origin, kind),
    getRateLimit: (key) => windows.get(key),
    setRateLimit: (key, window) => void windows.set(key, window),
    clearRateLimit: (key) => void windows.delete(key),
  };
}
