/**
 * Orders names as `a.localeCompare(b)` does, without loading ICU's collator (about 6 ms on the first
 * comparison of a run) when both names use only the characters app names allow (recipe-checks.ts,
 * APP_NAME_RE): for those, the root collation is a primary order `_ - . +`, digits, letters without
 * case, and then, at the first letter whose case differs, lower case first. Any other name goes to
 * localeCompare. test/core/compare-names.test.ts compares the two on random names.
 */

const PUNCTUATION = '_-.+';

// Primary weight of a character of an app name; -1 for any other.
function weight(code: number): number {
  if (code >= 97 && code <= 122) return 20 + code - 97;
  if (code >= 65 && code <= 90) return 20 + code - 65;
  if (code >= 48 && code <= 57) return 10 + code - 48;
  const p = PUNCTUATION.indexOf(String.fromCharCode(code));
  return p;
}

/** `a.localeCompare(b)` for app names (and file names built from them), sign for sign. */
export function compareNames(a: string, b: string): number {
  let caseOrder = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    const wa = weight(ca);
    const wb = weight(cb);
    if (wa < 0 || wb < 0) return a.localeCompare(b);
    if (wa !== wb) return rest(a, b, i) ?? wa - wb;
    // Same letter in another case: decides only when nothing else differs (lower case first).
    if (caseOrder === 0 && ca !== cb) caseOrder = ca > cb ? -1 : 1;
  }
  const tail = rest(a, b, n);
  if (tail !== undefined) return tail;
  if (a.length !== b.length) return a.length - b.length;
  return caseOrder;
}

// Falls back to localeCompare when either name has a character outside the set after `from`.
function rest(a: string, b: string, from: number): number | undefined {
  for (const s of [a, b])
    for (let i = from; i < s.length; i++) if (weight(s.charCodeAt(i)) < 0) return a.localeCompare(b);
  return undefined;
}

const SIMPLE_NAME = /^[A-Za-z0-9_.+-]*$/;

/**
 * A key whose plain string order is compareNames' order up to case, for a name of the characters
 * above; undefined for any other name. Equal keys leave the order to compareNames. Sorting
 * thousands of names (search hits) by these keys is several times faster than by compareNames in a
 * process that has not optimised it yet.
 */
export function namePrimaryKey(name: string): string | undefined {
  if (!SIMPLE_NAME.test(name)) return undefined;
  // ASCII already orders `-`, `.`, digits, letters: `_` moves before `-` (to `,`), `+` between `.`
  // and the digits (to `/`).
  return name.toLowerCase().replace(/[_+]/g, (c) => (c === '_' ? ',' : '/'));
}
