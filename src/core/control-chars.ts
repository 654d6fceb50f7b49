/**
 * Control characters: C0 (NUL..US), DEL and C1. Terminals act on them (ESC starts escape
 * sequences, CR rewrites a line) and desktop entries cannot hold them.
 */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHAR_RE = /[\u0000-\u001f\u007f-\u009f]/;

/** Index of the first control character in `s`, or -1. */
export function firstControlChar(s: string): number {
  const m = CONTROL_CHAR_RE.exec(s);
  return m ? m.index : -1;
}

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The visible spelling of one control character: `\n`, `\t`, `\r`, else `\xNN`. */
export function escapeControlChar(c: string): string {
  return NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}
