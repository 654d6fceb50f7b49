/**
 * What the two hand-written YAML readers share (plain-yaml.ts for recipes and config.yml,
 * lock-text.ts for the lock file): each reads only a narrow subset, exactly as the yaml library
 * would, and gives up on anything else or any doubt so the caller uses the library.
 */

// Printable ASCII and common printable Unicode only: tabs, CR, BOM, control characters,
// surrogates and the line and paragraph separators are the library's to judge.
const DOUBTFUL_CHAR = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

/** Thrown inside a reader when the text leaves its subset; never escapes readSubset. */
class Doubt extends Error {}

/** Gives up on the text being read. */
export function doubt(): never {
  throw new Doubt();
}

/** `read(text)`, or undefined when the text has a doubtful character or the reader gave up. */
export function readSubset<T>(text: string, read: (text: string) => T): T | undefined {
  if (DOUBTFUL_CHAR.test(text)) return undefined;
  try {
    return read(text);
  } catch (err) {
    if (err instanceof Doubt) return undefined;
    throw err;
  }
}
