import { rename } from 'node:fs/promises';
import { MAX_STATE_FILE_BYTES, readLocalJson } from './local-json.js';

/** Outcome of reading a versioned JSON file: its data, or why it was set aside. */
export type JsonLoad<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; data: T; text: string }
  | { kind: 'corrupt'; movedTo: string | undefined; reason: string };

/**
 * Reads a JSON file that must pass `check` (bounded: see local-json.ts). A corrupt file is moved
 * aside (never silently emptied) so the user can inspect or restore it; read-only callers only
 * report it.
 */
export async function readJsonFile<T>(
  path: string,
  check: (value: unknown) => value is T,
  now: Date,
  readOnly = false,
): Promise<JsonLoad<T>> {
  const read = readLocalJson(path, MAX_STATE_FILE_BYTES);
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'ok' && check(read.value)) return { kind: 'ok', data: read.value, text: read.text };
  const reason = read.kind === 'bad' ? read.reason : 'unexpected structure or schema version';
  if (readOnly) return { kind: 'corrupt', movedTo: undefined, reason };
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const movedTo = `${path}.corrupt-${stamp}`;
  await rename(path, movedTo);
  return { kind: 'corrupt', movedTo, reason };
}
