import { readFile, rename } from 'node:fs/promises';

/** Outcome of reading a versioned JSON file: its data, or why it was set aside. */
export type JsonLoad<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; data: T }
  | { kind: 'corrupt'; movedTo: string | undefined; reason: string };

/**
 * Reads a JSON file that must pass `check`. A corrupt file is moved aside (never silently emptied)
 * so the user can inspect or restore it; read-only callers only report it.
 */
export async function readJsonFile<T>(
  path: string,
  check: (value: unknown) => value is T,
  now: Date,
  readOnly = false,
): Promise<JsonLoad<T>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  let reason: string;
  try {
    const value: unknown = JSON.parse(text);
    if (check(value)) return { kind: 'ok', data: value };
    reason = 'unexpected structure or schema version';
  } catch (err) {
    reason = (err as Error).message;
  }
  if (readOnly) return { kind: 'corrupt', movedTo: undefined, reason };
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const movedTo = `${path}.corrupt-${stamp}`;
  await rename(path, movedTo);
  return { kind: 'corrupt', movedTo, reason };
}
