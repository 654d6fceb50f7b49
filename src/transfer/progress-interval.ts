/**
 * Longest a transfer goes without reporting progress while its bytes arrive, in milliseconds.
 * Writes are batched for speed; on a slow link a batch takes seconds to fill, and a bar that
 * moves only once per batch looks stuck, so a batch is written (and reported) early instead.
 */
export const PROGRESS_INTERVAL_MS = 100;
