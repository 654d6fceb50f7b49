/**
 * Text from outside (forge JSON, headers, file names, script output, desktop entries, and the
 * messages that embed them) is made safe here before it reaches a terminal: control characters
 * are shown escaped so they cannot move the cursor, recolour, retitle or rewrite lines, and length
 * is bounded. `--json` output stays exact: only jsonText, which writes the same value.
 */
import { escapeControlChar } from '../core/control-chars.js';

/** Default bound for a short field (name, version, tag, file name), in characters. */
export const FIELD_MAX = 256;
/** Bound for a message or hint, which may embed several fields or script output. */
export const MESSAGE_MAX = 2000;

// C0, DEL, C1, and the bidirectional overrides and isolates that can reorder what a line shows.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return code <= 0x9f ? escapeControlChar(c) : `\\u{${code.toString(16)}}`;
}

// What JSON.stringify leaves raw and a terminal still acts on or reorders: DEL, C1 (0x9b is CSI),
// the bidirectional controls. In a JSON document they can only stand inside a string.
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A JSON document with what a terminal would act on written as `\uXXXX`: the same value, exact. */
export function jsonText(json: string): string {
  return json.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line of outside text: every control character escaped (`\x1b`, `\n`), cut at `max`. */
export function termText(value: string, max: number = FIELD_MAX): string {
  const cut = value.length > max ? value.slice(0, max) : value;
  const escaped = cut.replace(UNSAFE, escapeOne);
  return value.length > max ? `${escaped}…(${value.length - max} more characters)` : escaped;
}

/** Bound for a file path or URL, in characters. */
export const PATH_MAX = 1024;

/** A file path or URL from outside: as `termText`, with the path bound. */
export function termPath(value: string): string {
  return termText(value, PATH_MAX);
}

/** `path` with the home directory shown as `~` (`~/Applications/x.AppImage`); other paths unchanged. */
export function tildePath(path: string, home: string): string {
  if (!home.startsWith('/') || home === '/') return path;
  const base = home.endsWith('/') ? home.slice(0, -1) : home;
  if (path === base) return '~';
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}

/** A message or hint: as `termText`, with the longer bound. */
export function termMessage(value: string): string {
  return termText(value, MESSAGE_MAX);
}

// Our own colours: SGR sequences such as ESC[1m, ESC[22m, ESC[31m.
// eslint-disable-next-line no-control-regex
const SGR_OR_UNSAFE = /\x1b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * The last guard on everything written to a terminal: keeps newlines, tabs and colour sequences (which
 * our renderers add around text already escaped by `termText`) and escapes every other control
 * character, so a field a renderer forgot still cannot drive the terminal.
 */
export function guardTerminal(text: string): string {
  return text.replace(SGR_OR_UNSAFE, (m) => (m.length > 1 ? m : escapeControlChar(m)));
}
