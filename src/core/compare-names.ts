/**
 * Orders names as `a.localeCompare(b)` does, without loading ICU's collator (about 6 ms on the first
 * comparison of a run) when both names use only the characters app names allow (recipe-checks.ts,
 * APP_NAME_RE): for those, the root collation is a primary order `_ - . +`, digits, letters without
 * case, and then, at the first letter whose case differs, lower case first. A name with any other
 * character before the point the order is decided goes to localeCompare.
 * test/core/compare-names.test.ts compares the two on random names.
 */

// Primary weight of each ASCII code of an app name's alphabet; 0 for any other character.
const WEIGHTS = new Uint8Array(128);
'_-.+'.split('').forEach((c, i) => (WEIGHTS[c.charCodeAt(0)] = 1 + i));
for (let d = 0; d < 10; d++) WEIGHTS[48 + d] = 10 + d;
for (let l = 0; l < 26; l++) WEIGHTS[97 + l] = WEIGHTS[65 + l] = 20 + l;

function weight(code: number): number {
  return code < 128 ? (WEIGHTS[code] ?? 0) : 0;
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
    if (wa === 0 || wb === 0) return a.localeCompare(b);
    // Everything before was the same at the primary level: this decides, whatever follows.
    if (wa !== wb) return wa - wb;
    // Same letter in another case: decides only when nothing else differs (lower case first).
    if (caseOrder === 0 && ca !== cb) caseOrder = ca > cb ? -1 : 1;
  }
  // One is a start of the other: the longer one follows, unless what it adds is outside the
  // alphabet (ICU may ignore such characters), which localeCompare judges.
  const longer = a.length > b.length ? a : b;
  for (let i = n; i < longer.length; i++) if (weight(longer.charCodeAt(i)) === 0) return a.localeCompare(b);
  if (a.length !== b.length) return a.length - b.length;
  return caseOrder;
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
