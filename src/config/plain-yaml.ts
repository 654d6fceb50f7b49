/**
 * A reader for the plain subset of YAML that recipes are written in: block mappings of simple keys,
 * plain or quoted one-line scalars, block sequences of such scalars, comments. It answers the same
 * value as the yaml library's `parseDocument(text).toJS()` or, on anything outside that subset or
 * any doubt at all, undefined, and the caller parses the text with the library. It exists for
 * start-up time: the library builds a full document (positions, comments, node objects) that only
 * error messages need, and costs most of what reading a recipe does.
 */
import { doubt, readSubset } from './yaml-subset.js';

/** Deeper nesting than this is left to the library. */
const MAX_DEPTH = 8;
/** Longer scalars are left to the library (it bounds its own work). */
const MAX_SCALAR = 4096;

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED_KEYS = new Set([
  '__proto__',
  'null',
  'Null',
  'NULL',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
]);
// A plain scalar may not start with an indicator; these are left to the library even where YAML
// would allow them (`-x`, `?x`, `:x`).
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`.+~]/;
// Starts recipes use that are plain strings all the same: `--no-sandbox`, `./resolver.sh`,
// `~/Applications` (not a number such as `-1` or `.5`, nor `~` alone, which is null).
const COMMON_START = /^(-[-A-Za-z]|\.{1,2}\/|~\/)/;

type Container =
  | { kind: 'map'; indent: number; value: Record<string, unknown>; pendingKey?: string | undefined }
  | { kind: 'seq'; indent: number; value: unknown[] };

/** The value of a plain (unquoted) scalar, as YAML 1.2's core schema resolves it. */
function plainValue(text: string): unknown {
  if (text === 'null' || text === 'Null' || text === 'NULL') return null;
  if (text === 'true' || text === 'True' || text === 'TRUE') return true;
  if (text === 'false' || text === 'False' || text === 'FALSE') return false;
  if (/^[0-9]/.test(text)) {
    // Decimal integers without a leading zero; octal, hex, floats and anything else number-like
    // go to the library.
    if (/^[1-9][0-9]{0,14}$/.test(text) || text === '0') return Number(text);
    doubt();
  }
  if (INDICATOR_START.test(text) && !COMMON_START.test(text)) doubt();
  // `a: b` would be a nested compact mapping (an error), and ` #` would have ended the scalar.
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) doubt();
  return text;
}

/** A scalar and what follows it on its line: only spaces and a comment may. */
function scalarValue(raw: string): unknown {
  if (raw.length > MAX_SCALAR) doubt();
  const q = raw[0];
  if (q === '"' || q === "'") {
    let out = '';
    let i = 1;
    for (;;) {
      const c = raw[i];
      if (c === undefined) doubt();
      if (q === '"' && c === '\\') doubt();
      if (c === q) {
        if (q === "'" && raw[i + 1] === "'") {
          out += "'";
          i += 2;
          continue;
        }
        break;
      }
      out += c;
      i++;
    }
    const rest = raw.slice(i + 1);
    if (rest.trim() !== '' && !/^ +#/.test(rest)) doubt();
    return out;
  }
  const hash = raw.indexOf(' #');
  const text = (hash === -1 ? raw : raw.slice(0, hash)).trimEnd();
  if (text === '') doubt();
  return plainValue(text);
}

/**
 * The value of `text` when it is a mapping in the plain recipe subset of YAML, exactly as the yaml
 * library would give it; undefined when it is anything else or the reader has any doubt.
 */
export function readPlainYaml(text: string): Record<string, unknown> | undefined {
  return readSubset(text, read);
}

function read(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const stack: Container[] = [{ kind: 'map', indent: 0, value: root }];
  let lines = 0;
  for (const line of text.split('\n')) {
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    const indent = line.length - content.length;
    if (indent === 0 && (content.startsWith('---') || content.startsWith('...') || content[0] === '%'))
      doubt();
    lines++;
    place(stack, indent, content);
  }
  if (lines === 0) doubt();
  for (const c of stack) closePending(c);
  return root;
}

// A key left without a value at the end of its mapping is null, as `key:` alone is.
function closePending(c: Container): void {
  if (c.kind === 'map' && c.pendingKey !== undefined) {
    c.value[c.pendingKey] = null;
    c.pendingKey = undefined;
  }
}

function place(stack: Container[], indent: number, content: string): void {
  let top = stack[stack.length - 1] ?? doubt();
  // A pending key opens a nested mapping (deeper) or a sequence (deeper, or at the key's own indent).
  if (top.kind === 'map' && top.pendingKey !== undefined) {
    const isItem = content === '-' || content.startsWith('- ');
    if (indent > top.indent || (isItem && indent === top.indent)) {
      if (stack.length >= MAX_DEPTH) doubt();
      const child: Container = isItem
        ? { kind: 'seq', indent, value: [] }
        : { kind: 'map', indent, value: {} };
      top.value[top.pendingKey] = child.value;
      top.pendingKey = undefined;
      stack.push(child);
      top = child;
    } else closePending(top);
  }
  // Back out to the container this line belongs to; its indent must match exactly.
  while (indent < top.indent || (top.kind === 'seq' && !content.startsWith('- ') && content !== '-')) {
    closePending(top);
    stack.pop();
    top = stack[stack.length - 1] ?? doubt();
  }
  if (indent !== top.indent) doubt();
  if (top.kind === 'seq') {
    if (!content.startsWith('- ')) doubt();
    top.value.push(scalarValue(content.slice(2).trimStart()));
    return;
  }
  const colon = content.indexOf(':');
  if (colon <= 0) doubt();
  const key = content.slice(0, colon);
  if (!KEY.test(key) || RESERVED_KEYS.has(key) || Object.hasOwn(top.value, key)) doubt();
  const after = content.slice(colon + 1);
  if (after !== '' && after[0] !== ' ') doubt();
  const raw = after.trimStart();
  if (raw === '' || raw.startsWith('#')) {
    top.pendingKey = key;
    // Reserve the key's place so the mapping keeps the file's order.
    top.value[key] = null;
    return;
  }
  top.value[key] = scalarValue(raw);
}
