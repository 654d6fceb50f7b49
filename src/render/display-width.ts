/**
 * How many terminal cells text takes, and cutting text to a number of cells. Text reaching here
 * was escaped by `termText` (no control characters); our own colour sequences take no cells.
 * East Asian wide and fullwidth characters and most emoji take two cells, combining marks and
 * format characters none (the ranges of Markus Kuhn's wcwidth, widened for emoji planes).
 */

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

// [first, last] code points drawn two cells wide, ascending.
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];

function isWide(cp: number): boolean {
  if (cp < WIDE[0]![0]) return false;
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last] = WIDE[mid]!;
    if (cp < first) hi = mid - 1;
    else if (cp > last) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Cells one character (a code point) takes: 0, 1 or 2. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x300) return 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  return isWide(cp) ? 2 : 1;
}

/** Cells `text` takes on a terminal; colour sequences count for nothing. */
export function displayWidth(text: string): number {
  // Printable ASCII, most cells of a table, is one cell a character: no regex, no per-character walk.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text.replace(SGR, '')) width += charWidth(ch);
  return width;
}

// The longest start of `chars` that fits in `cells`.
function takeCells(chars: string[], cells: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const ch of chars) {
    const w = charWidth(ch);
    if (used + w > cells) break;
    out.push(ch);
    used += w;
  }
  return out;
}

/** `text` cut to `cells` with `…` at the end when it is wider (its start is kept); plain text only. */
export function truncateEnd(text: string, cells: number): string {
  if (displayWidth(text) <= cells) return text;
  if (cells <= 0) return '';
  return `${takeCells([...text], cells - 1).join('')}…`;
}

/**
 * `text` shortened to `cells` by replacing its middle with `…` when it is wider: for paths, whose
 * start (where) and end (the file name) both matter. The end gets the larger share, and the whole
 * last `/` segment when that leaves the start two cells (`~/…/Obsidian-1.7.7.AppImage`).
 */
export function shortenMiddle(text: string, cells: number): string {
  if (displayWidth(text) <= cells) return text;
  if (cells <= 2) return truncateEnd(text, cells);
  const room = cells - 1;
  const slash = text.lastIndexOf('/');
  const lastSegment = slash === -1 ? 0 : displayWidth(text.slice(slash));
  const tailCells = Math.max(room - Math.floor(room * 0.4), Math.min(lastSegment, room - 2));
  const chars = [...text];
  const tail = takeCells([...chars].reverse(), tailCells).reverse();
  const head = takeCells(chars.slice(0, chars.length - tail.length), room - displayWidth(tail.join('')));
  return `${head.join('')}…${tail.join('')}`;
}
