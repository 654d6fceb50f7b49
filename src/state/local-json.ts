/**
 * Reading the JSON files we keep (state, cache, install intents, locks). Another program or a
 * user can replace any of them with a FIFO, gigabytes, or nested brackets, so each is read with a
 * byte cap (the bounded reader of untrusted files) and parsed by the bounded JSON parser.
 */
import { parseJsonWithin, type JsonLimits } from '../core/bounded-json.js';
import { readSmallFileSync } from '../core/small-file.js';

/** Far above what we write (a state file of thousands of apps is a few MB), far below harm. */
export const MAX_STATE_FILE_BYTES = 16 * 1024 * 1024;
/** A lock file holds one owner record of a few hundred bytes. */
export const MAX_LOCK_FILE_BYTES = 64 * 1024;
/** The limits of API answers: our files nest a few levels and hold far fewer values. */
export const LOCAL_JSON_LIMITS: JsonLimits = { maxDepth: 64, maxValues: 1_000_000 };

/** A file's parsed JSON, its absence, or why it could not be used. */
export type LocalJson =
  { kind: 'missing' } | { kind: 'ok'; value: unknown; text: string } | { kind: 'bad'; reason: string };

/**
 * Reads and parses `path` (at most `maxBytes`); a missing file is `missing`, one too large, not
 * regular or not JSON within the limits is `bad`. Other read errors (EACCES, EISDIR) are thrown.
 */
export function readLocalJson(path: string, maxBytes: number, limits = LOCAL_JSON_LIMITS): LocalJson {
  let file;
  try {
    file = readSmallFileSync(path, maxBytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  if (file.kind === 'not-regular') return { kind: 'bad', reason: 'not a regular file' };
  if (file.kind === 'too-large') return { kind: 'bad', reason: `larger than ${maxBytes} bytes` };
  const parsed = parseJsonWithin(file.text, limits);
  return parsed.ok
    ? { kind: 'ok', value: parsed.value, text: file.text }
    : { kind: 'bad', reason: parsed.message };
}
