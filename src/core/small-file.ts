import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { LineSplitter } from './byte-lines.js';

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
    // Read first, ask what the file is only when the read leaves a doubt: a regular file with
    // something in it (nearly every call) needs no fstat and no Stats object of its own.
    let read: number;
    try {
      read = readInto(fd, max + 1);
    } catch (err) {
      // A folder (EISDIR), FIFO or socket (ESPIPE, EAGAIN) cannot be read from an offset.
      if (!fstatSync(fd).isFile()) return { kind: 'not-regular' };
      throw err;
    }
    // Nothing read (an empty file, or a FIFO without a writer) or more than allowed (a big file, or
    // a device without end): only a regular file is read at all.
    if ((read === 0 || read > max) && !fstatSync(fd).isFile()) return { kind: 'not-regular' };
    if (read > max && !opts.head) return { kind: 'too-large' };
    return { kind: 'text', text: scratch.toString('utf8', 0, Math.min(read, max)) };
  } finally {
    closeSync(fd);
  }
}

// One buffer for every read (the reads are synchronous, so never two at once), grown on demand.
let scratch = Buffer.allocUnsafe(64 * 1024);

// Reads from the start of `fd` until its end or `limit` bytes, into `scratch`; the count read.
function readInto(fd: number, limit: number): number {
  let used = 0;
  for (;;) {
    if (used === scratch.length && used < limit) {
      const bigger = Buffer.allocUnsafe(Math.min(limit, scratch.length * 4));
      scratch.copy(bigger, 0, 0, used);
      scratch = bigger;
    }
    const n = readSync(fd, scratch, used, Math.min(scratch.length, limit) - used, used);
    used += n;
    if (n === 0 || used >= limit) return used;
  }
}

/** What a line-by-line read of an untrusted file found. */
export type FileLines = 'read' | 'not-regular' | 'too-large' | 'line-too-long';

/**
 * Reads an untrusted file of at most `max` bytes line by line (LineSplitter), never whole: each
 * line, of at most `maxLine` bytes, goes to `onLine` (which may throw to stop). Only a regular
 * file is read, opened non-blocking as readSmallFileSync does. Open errors are thrown with their code.
 */
export function readFileLinesSync(
  path: string,
  max: number,
  maxLine: number,
  onLine: (line: Buffer) => void,
): FileLines {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return 'not-regular';
    if (stat.size > max) return 'too-large';
    let longLine = false;
    const lines = new LineSplitter(maxLine, (line, cut) => {
      if (cut) longLine = true;
      else if (!longLine) onLine(line);
    });
    const chunk = Buffer.allocUnsafe(64 * 1024);
    let total = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, total);
      if (n === 0) break;
      total += n;
      if (total > max) return 'too-large';
      lines.push(chunk.subarray(0, n));
      if (longLine) return 'line-too-long';
    }
    lines.end();
    return longLine ? 'line-too-long' : 'read';
  } finally {
    closeSync(fd);
  }
}
