import { readSmallFileSync } from '../../core/small-file.js';

/** Unit files we write are a few hundred bytes; anything far larger is not ours. */
const MAX_UNIT_BYTES = 64 * 1024;

/** A unit file's text, or that it is absent, or why it cannot be read. */
export type UnitFileText =
  { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

/**
 * Reads a unit file as untrusted input: a regular file (a FIFO in its place must not block us) of
 * at most 64 KiB, as UTF-8.
 */
export function readUnitFile(path: string): UnitFileText {
  try {
    const read = readSmallFileSync(path, MAX_UNIT_BYTES);
    if (read.kind === 'not-regular') return { kind: 'unreadable', reason: 'not a regular file' };
    if (read.kind === 'too-large')
      return { kind: 'unreadable', reason: `larger than ${MAX_UNIT_BYTES} bytes` };
    return read;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: code ?? String(err) };
  }
}
