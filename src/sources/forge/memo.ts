/** Per-run sharing of in-flight work, so recipes that point at one repository cost one request. */

/** The shared value and whether another caller started it. */
export interface Memoized<T> {
  value: T;
  shared: boolean;
}

/** Runs `fn` once per key for the lifetime of `memo`; later callers await the same promise. */
export async function memoize<T>(
  memo: Map<string, Promise<unknown>>,
  key: string,
  fn: () => Promise<T>,
): Promise<Memoized<T>> {
  const existing = memo.get(key);
  if (existing) return { value: (await existing) as T, shared: true };
  const promise = fn();
  memo.set(key, promise);
  try {
    return { value: await promise, shared: false };
  } catch (err) {
    // A failure is not cached: the next recipe gets its own attempt and its own error.
    memo.delete(key);
    throw err;
  }
}
