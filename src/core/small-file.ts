import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** What a bounded read of an untrusted file found. */
export type SmallFile = { kind: 'text'; text: string } | { kind: 'not-regular' } | { kind: 'too-large' };

/**
 * Reads an untrusted file as UTF-8: only a regular file, opened non-blocking so that a FIFO or a
 * device in its place is refused instead of waited on, of at most `max` bytes (with `head`, the
 * first `max` bytes of a larger file instead of refusing it). Open and read errors are thrown with
 * their `code` (ENOENT, EACCES). Synchronous on purpose: the callers read a few small files (config,
 * recipes, unit files) where the thread pool's four round trips per file cost more than the read.
 */
export function readSmallFileSync(path: string, max: number, opts: { head?: boolean } = {}): SmallFile {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'not-regular' };
    if (st.size > max && !opts.head) return { kind: 'too-large' };
    // One byte more than allowed tells a file that grew since fstat from one that did not.
    // Only the bytes read are used: no need to zero the buffer (small ones come from Node's pool).
    const buf = Buffer.allocUnsafe(Math.min(st.size, max) + 1);
    const limit = opts.head ? Math.min(max, buf.length) : buf.length;
    let used = 0;
    for (let n = 1; n > 0 && used < limit; used += n) n = readSync(fd, buf, used, limit - used, used);
    if (used > max) return { kind: 'too-large' };
    return { kind: 'text', text: buf.subarray(0, used).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}
