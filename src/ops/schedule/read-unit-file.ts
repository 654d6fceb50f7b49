import { constants, open } from 'node:fs/promises';

/** Unit files we write are a few hundred bytes; anything far larger is not ours. */
const MAX_UNIT_BYTES = 64 * 1024;

/** A unit file's text, or that it is absent, or why it cannot be read. */
export type UnitFileText =
  { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

/**
 * Reads a unit file as untrusted input: a regular file (a FIFO in its place must not block us) of
 * at most 64 KiB, as UTF-8.
 */
export async function readUnitFile(path: string): Promise<UnitFileText> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: code ?? String(err) };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (st.size > MAX_UNIT_BYTES)
      return { kind: 'unreadable', reason: `larger than ${MAX_UNIT_BYTES} bytes` };
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(buf, 0, st.size, 0);
    return { kind: 'text', text: buf.subarray(0, bytesRead).toString('utf8') };
  } catch (err) {
    return { kind: 'unreadable', reason: (err as NodeJS.ErrnoException).code ?? String(err) };
  } finally {
    await handle.close();
  }
}
