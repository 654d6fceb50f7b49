/**
 * The yardstick of our hand-written YAML readers (src/config/plain-yaml.ts, lock-text.ts): what
 * they answer must be exactly what the yaml library reads, values and key order alike.
 */
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';

/** What the yaml library reads from `text`: its value, or not ok when it reports an error. */
export function libraryValue(text: string): { ok: boolean; value: unknown } {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  return {
    ok: doc.errors.length === 0,
    value: doc.errors.length ? undefined : doc.toJS({ maxAliasCount: 100 }),
  };
}

/**
 * false when `read` declines `text`; otherwise asserts the library reads the same value, with the
 * same key order at every depth, and returns true.
 */
export function assertReaderAgrees(read: (text: string) => unknown, text: string): boolean {
  const ours = read(text);
  if (ours === undefined) return false;
  const full = libraryValue(text);
  assert.ok(full.ok, `the reader accepted what the library refuses: ${JSON.stringify(text)}`);
  assert.deepEqual(ours, full.value, JSON.stringify(text));
  assert.equal(JSON.stringify(ours), JSON.stringify(full.value), `key order: ${JSON.stringify(text)}`);
  return true;
}
