/**
 * Words of systemd unit settings: quoting what we write (`ExecStart=`, `Environment=`) and reading
 * it back. The reader covers systemd's word syntax (double or single quotes anywhere in a word, C
 * escapes, `%%`, and in `ExecStart=` `$$`) and refuses what it cannot resolve on its own (other
 * specifiers such as `%h`, environment variables), so a hand-edited unit is reported, not guessed.
 */

function escapeWord(arg: string, dollar: boolean): string {
  const escaped = arg
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    // systemd also ends a line at a carriage return; other control characters are escaped for clarity.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(/%/g, '%%');
  return `"${dollar ? escaped.replace(/\$/g, '$$$$') : escaped}"`;
}

/**
 * Quotes one ExecStart argument for systemd: double quotes with C escapes (newline, carriage return
 * and other control characters too), `%` doubled (specifiers) and `$` doubled (variable
 * expansion), so any path survives unchanged.
 */
export function systemdQuote(arg: string): string {
  return escapeWord(arg, true);
}

/** Quotes one `Environment=` assignment (`NAME=value`): like ExecStart, but `$` is literal there. */
export function systemdEnvQuote(assignment: string): string {
  return escapeWord(assignment, false);
}

/** The words of a setting's value, or why they cannot be read without systemd. */
export type WordsResult = { ok: true; words: string[] } | { ok: false; reason: string };

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  s: ' ',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
};

/** Reads a C escape after a backslash at `text[i]`; returns the character(s) and the next index. */
function unescape(text: string, i: number): { value: string; next: number } | undefined {
  const ch = text[i];
  if (ch === undefined) return undefined;
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return { value: simple, next: i + 1 };
  const hex = (len: number, from: number) => {
    const digits = text.slice(from, from + len);
    if (digits.length !== len || !/^[0-9a-fA-F]+$/.test(digits)) return undefined;
    const code = parseInt(digits, 16);
    if (code === 0 || code > 0x10ffff) return undefined;
    return { value: String.fromCodePoint(code), next: from + len };
  };
  if (ch === 'x') return hex(2, i + 1);
  if (ch === 'u') return hex(4, i + 1);
  if (ch === 'U') return hex(8, i + 1);
  if (/[0-7]/.test(ch)) {
    const digits = text.slice(i, i + 3);
    if (!/^[0-7]{3}$/.test(digits)) return undefined;
    const code = parseInt(digits, 8);
    if (code === 0 || code > 0xff) return undefined;
    return { value: String.fromCharCode(code), next: i + 3 };
  }
  return undefined;
}

/**
 * Splits a setting's value into words the way systemd does for `ExecStart=` (`dollar: true`: `$$`
 * is a `$`, any other `$` is a variable we do not expand) or `Environment=` (`$` is literal).
 */
export function splitUnitWords(text: string, opts: { dollar: boolean }): WordsResult {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  let i = 0;
  const fail = (reason: string): WordsResult => ({ ok: false, reason });
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '\0') return fail('contains a NUL character');
    if (!quote && /\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
      continue;
    }
    if (!quote && (ch === '"' || ch === "'")) {
      quote = ch;
      word ??= '';
      i++;
      continue;
    }
    if (quote && ch === quote) {
      quote = undefined;
      i++;
      continue;
    }
    if (ch === '\\') {
      const esc = unescape(text, i + 1);
      if (!esc) return fail(`unsupported escape at column ${i + 1}`);
      word = (word ?? '') + esc.value;
      i = esc.next;
      continue;
    }
    if (ch === '%') {
      if (text[i + 1] !== '%') return fail(`uses the systemd specifier %${text[i + 1] ?? ''}`);
      word = (word ?? '') + '%';
      i += 2;
      continue;
    }
    if (ch === '$' && opts.dollar) {
      if (text[i + 1] !== '$') return fail('uses an environment variable ($...)');
      word = (word ?? '') + '$';
      i += 2;
      continue;
    }
    word = (word ?? '') + ch;
    i++;
  }
  if (quote) return fail('has an unterminated quote');
  if (word !== undefined) words.push(word);
  return { ok: true, words };
}
