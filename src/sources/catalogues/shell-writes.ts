/**
 * Finds every place a shell script sets one variable, reading the text as bash parses it and never
 * running it: here-documents are data, and an assignment inside a function body, an `if`, `case`
 * or loop, a subshell or a command substitution, or joined by `&&`, `||`, `|` or `&`, is reported
 * as such, so a caller can trust only a plain assignment at the top level. What it cannot follow
 * (an unclosed quote or block, nesting past SHELL_LIMITS.depth) is an error, never a guess.
 */

/** Bounds of one scan. */
export const SHELL_LIMITS = { chars: 256 * 1024, depth: 64, heredocs: 64 } as const;

/** A compound command or substitution a write sits in. */
export type ShellBlock =
  'function body' | 'brace group' | 'subshell' | 'if block' | 'case' | 'loop' | 'command substitution';

/** One place the script sets the variable. */
export interface VariableWrite {
  line: number;
  /**
   * `assignment`: `NAME=value` as a command of its own; `prefix`: before a command, for it alone;
   * `joined`: in an `&&`, `||`, `|` or `&` list or after `!`; `builtin`: through `via` (export,
   * read, a `for` loop…); `expansion`: `${NAME:=…}` or arithmetic.
   */
  how: 'assignment' | 'prefix' | 'joined' | 'builtin' | 'expansion';
  /** The value with quotes removed; undefined when it expands anything. */
  value?: string | undefined;
  via?: string | undefined;
  /** The outermost block holding it; undefined at the top level. */
  inside?: { block: ShellBlock; line: number } | undefined;
}

/** The writes found, or why the script could not be read. */
export type ShellScan = { ok: true; writes: VariableWrite[] } | { ok: false; why: string; line: number };

class ScanError extends Error {
  constructor(
    why: string,
    readonly line: number,
  ) {
    super(why);
  }
}

interface Frame {
  block: ShellBlock;
  line: number;
  /** What closes it. */
  end: ')' | '}' | 'fi' | 'done' | 'esac';
  /** case: reading the subject, patterns, or a branch's commands. */
  stage?: 'subject' | 'patterns' | 'branch';
}

interface Word {
  kind: 'word';
  line: number;
  /** Source text. */
  raw: string;
  /** Quotes and escapes removed; expansions left out. */
  value: string;
  /** Nothing in it expands. */
  literal: boolean;
}
interface Op {
  kind: 'op';
  op: string;
  line: number;
}
type Token = Word | Op | { kind: 'eof'; line: number };

// Longest first, so `;;&` is not read as `;;` then `&`.
const OPERATORS = [
  ';;&', '&>>', '<<-', '<<<', ';;', ';&', '&&', '||', '|&', '&>', '<<', '>>', '<&', '>&', '<>', '>|',
  ';', '&', '|', '(', ')', '<', '>',
]; // prettier-ignore
const REDIRECTS = new Set(['<', '>', '>>', '<&', '>&', '<>', '>|', '&>', '&>>', '<<<', '<<', '<<-']);
const JOINERS = new Set(['&&', '||', '|', '|&', '&']);
// Reserved words (at a command's start): those that open a block, those only valid inside one,
// those that close one, and the rest.
const OPENERS = new Map<string, Omit<Frame, 'line'>>([
  ['if', { block: 'if block', end: 'fi' }],
  ['while', { block: 'loop', end: 'done' }],
  ['until', { block: 'loop', end: 'done' }],
  ['for', { block: 'loop', end: 'done' }],
  ['select', { block: 'loop', end: 'done' }],
  ['case', { block: 'case', end: 'esac', stage: 'subject' }],
  ['{', { block: 'brace group', end: '}' }],
]);
const MIDDLES = new Map<string, Frame['end']>([
  ['then', 'fi'],
  ['elif', 'fi'],
  ['else', 'fi'],
  ['do', 'done'],
]);
const CLOSERS = new Set(['fi', 'done', 'esac', '}']);
const OTHER_RESERVED = new Set(['!', 'time', 'function']);
const DECLARERS = new Set(['export', 'readonly', 'declare', 'typeset', 'local']);
const WRITERS = new Set(['read', 'unset', 'mapfile', 'readarray', 'printf', 'eval', 'let', 'getopts']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const NAME_CHAR = /[A-Za-z0-9_]/;

/** Every place `script` sets the shell variable `name` (bounded: SHELL_LIMITS). */
export function scanVariableWrites(script: string, name: string): ShellScan {
  if (script.length > SHELL_LIMITS.chars)
    return { ok: false, why: `it is longer than ${SHELL_LIMITS.chars} characters`, line: 1 };
  const scanner = new Scanner(script, name, 0, [], 0);
  try {
    scanner.script();
    return { ok: true, writes: scanner.writes };
  } catch (err) {
    if (err instanceof ScanError) return { ok: false, why: err.message, line: err.line };
    throw err;
  }
}

class Scanner {
  readonly writes: VariableWrite[] = [];
  private pos = 0;
  private line: number;
  private readonly stack: Frame[] = [];
  private readonly heredocs: { delimiter: string; strip: boolean; expands: boolean; line: number }[] = [];
  private readonly arithmetic: RegExp;
  private nest = 0;

  constructor(
    private readonly src: string,
    private readonly name: string,
    lineOffset: number,
    /** Frames of the scanners this one runs inside (backquoted command substitutions). */
    private readonly outer: Frame[],
    /** How deep those scanners were nested when they started this one. */
    private readonly outerDepth: number,
  ) {
    this.line = lineOffset + 1;
    const n = name.replace(/[^A-Za-z0-9_]/g, '');
    this.arithmetic = new RegExp(
      `(^|[^A-Za-z0-9_$])${n}\\s*(\\+\\+|--|(<<|>>|[-+*/%&|^])?=(?!=))|(\\+\\+|--)\\s*${n}(?![A-Za-z0-9_])`,
    );
  }

  /** Reads the whole text as a script. */
  script(): void {
    this.commands(0);
    const open = this.stack[this.stack.length - 1];
    if (open) throw new ScanError(`the ${open.block} from line ${open.line} is never closed`, this.line);
  }

  private get outermost(): Frame | undefined {
    return this.outer[0] ?? this.stack[0];
  }

  private push(frame: Frame): void {
    this.enter();
    this.nest--;
    this.stack.push(frame);
  }

  // Every block, quote and expansion counts towards one bound, so no input can exhaust the stack.
  private enter(): void {
    if (this.depth() >= SHELL_LIMITS.depth)
      throw new ScanError(`blocks nest more than ${SHELL_LIMITS.depth} deep`, this.line);
    this.nest++;
  }

  private depth(): number {
    return this.outerDepth + this.stack.length + this.nest;
  }

  private pop(end: Frame['end'], word: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top?.end !== end) throw new ScanError(`unexpected \`${word}\``, this.line);
    this.stack.pop();
  }

  private record(write: VariableWrite): void {
    const inside = this.outermost;
    this.writes.push(inside ? { ...write, inside: { block: inside.block, line: inside.line } } : write);
  }

  // The command lists until the frame at `depth` closes (or the end of the text at depth 0).
  private commands(depth: number): void {
    let words: Word[] = [];
    let before = 'start';
    let atStart = true;
    let compoundDone = false;
    let functionNext = false;
    let functionName = false;
    let forName = false;
    let inTest = false;
    let redirect: string | undefined;
    const finish = (after: string): void => {
      this.simpleCommand(words, JOINERS.has(before) || JOINERS.has(after));
      words = [];
      before = after;
      atStart = true;
      compoundDone = false;
    };
    for (;;) {
      const frame = this.stack[this.stack.length - 1];
      if ((atStart || forName) && words.length === 0 && this.src.startsWith('((', this.skipBlanks())) {
        this.pos += 2;
        this.arithmeticUntilClose(2);
        atStart = false;
        forName = false;
        compoundDone = true;
        continue;
      }
      const tok = this.token();
      if (tok.kind === 'eof') {
        if (inTest) throw new ScanError('a [[ is never closed', tok.line);
        if (redirect) throw new ScanError(`\`${redirect}\` has no target`, tok.line);
        finish('end');
        if (depth > 0) throw new ScanError(`the ${frame?.block ?? 'block'} is never closed`, tok.line);
        if (this.heredocs.length > 0)
          throw new ScanError(`the here-document from line ${this.heredocs[0]?.line} has no end`, tok.line);
        return;
      }
      if (inTest) {
        // Inside [[ … ]], `(`, `<`, `&&` are parts of the test, not shell syntax.
        if (tok.kind === 'word' && tok.raw === ']]') inTest = false;
        else if (tok.kind === 'op' && (tok.op.startsWith(';') || tok.op === '&'))
          throw new ScanError(`unexpected \`${tok.op}\` in [[ ]]`, tok.line);
        continue;
      }
      if (redirect) {
        if (tok.kind !== 'word') throw new ScanError(`\`${redirect}\` has no target`, tok.line);
        if (redirect === '<<' || redirect === '<<-') this.hereDocument(tok, redirect === '<<-');
        redirect = undefined;
        continue;
      }
      if (tok.kind === 'op') {
        const op = tok.op;
        if (frame?.end === 'esac' && frame.stage !== 'branch') {
          if (op === ')' && frame.stage === 'patterns') {
            frame.stage = 'branch';
            atStart = true;
          } else if (op !== '\n' && (frame.stage === 'subject' || (op !== '(' && op !== '|')))
            throw new ScanError(`unexpected \`${op}\` in a case`, tok.line);
          continue;
        }
        if (REDIRECTS.has(op)) {
          redirect = op;
          continue;
        }
        if (op === '(') {
          if (words.length === 1 && !compoundDone && this.src[this.skipBlanks()] === ')') {
            this.pos++;
            words = [];
            functionNext = true;
            atStart = true;
            continue;
          }
          if (!atStart || words.length > 0) throw new ScanError('unexpected `(`', tok.line);
          this.push({ block: functionNext ? 'function body' : 'subshell', line: tok.line, end: ')' });
          functionNext = false;
          continue;
        }
        if (op === ')') {
          finish(')');
          this.pop(')', ')');
          if (this.stack.length < depth) return;
          atStart = false;
          compoundDone = true;
          continue;
        }
        if (op === ';;' || op === ';&' || op === ';;&') {
          finish(';');
          if (frame?.end !== 'esac') throw new ScanError(`unexpected \`${op}\``, tok.line);
          frame.stage = 'patterns';
          continue;
        }
        // Blank lines, and the lines between a function's name and its body.
        if (op === '\n' && words.length === 0 && !compoundDone) continue;
        forName = false;
        finish(op === '\n' ? ';' : op);
        continue;
      }
      if (frame?.end === 'esac' && frame.stage !== 'branch') {
        if (frame.stage === 'subject') {
          if (tok.raw === 'in' && words.length === 1) {
            frame.stage = 'patterns';
            words = [];
          } else if (words.length === 0) words.push(tok);
          else throw new ScanError('a case without `in`', tok.line);
        } else if (tok.raw === 'esac') {
          this.pop('esac', 'esac');
          atStart = false;
          compoundDone = true;
        }
        continue;
      }
      if (forName) {
        forName = false;
        if (tok.value === this.name) this.record({ line: tok.line, how: 'builtin', via: 'a for loop' });
        words = [tok];
        continue;
      }
      if (functionName) {
        functionName = false;
        functionNext = true;
        if (this.src.startsWith('()', this.skipBlanks())) this.pos += 2;
        continue;
      }
      const reserved = atStart && words.length === 0 && tok.literal && tok.raw === tok.value;
      const depthBefore = this.stack.length;
      if (reserved && this.reservedWord(tok, frame)) {
        const w = tok.raw;
        if (functionNext && this.stack.length > depthBefore) this.stack[depthBefore]!.block = 'function body';
        functionNext = false;
        if (w === 'for' || w === 'select') forName = true;
        if (w === 'function') functionName = true;
        if (w === '!') before = '&&';
        compoundDone = w === '}' || w === 'fi' || w === 'done' || w === 'esac';
        atStart = !compoundDone && w !== 'case' && w !== 'for' && w !== 'select';
        continue;
      }
      if (compoundDone) throw new ScanError(`unexpected \`${tok.raw.slice(0, 40)}\``, tok.line);
      if (atStart && words.length === 0 && tok.raw === '[[') inTest = true;
      words.push(tok);
      atStart = false;
    }
  }

  // Opens, moves through or closes a compound command; false when `tok` is an ordinary word.
  private reservedWord(tok: Word, frame: Frame | undefined): boolean {
    const w = tok.raw;
    const opens = OPENERS.get(w);
    if (opens) this.push({ ...opens, line: tok.line });
    else if (MIDDLES.has(w)) {
      if (frame?.end !== MIDDLES.get(w)) throw new ScanError(`unexpected \`${w}\``, tok.line);
    } else if (CLOSERS.has(w)) this.pop(w as Frame['end'], w);
    else return OTHER_RESERVED.has(w);
    return true;
  }

  // One simple command's words: its leading assignments, and a declaration or builtin naming ours.
  private simpleCommand(words: Word[], joined: boolean): void {
    const leading = words.findIndex((w) => !ASSIGNMENT.test(w.raw));
    const count = leading < 0 ? words.length : leading;
    for (const w of words.slice(0, count)) {
      const m = ASSIGNMENT.exec(w.raw);
      if (m?.[1] !== this.name) continue;
      const how = count < words.length ? 'prefix' : joined ? 'joined' : 'assignment';
      const plain = w.literal && !m[2] && !m[0].endsWith('+=');
      this.record({ line: w.line, how, value: plain ? w.value.slice(w.value.indexOf('=') + 1) : undefined });
    }
    const command = words[count]?.value;
    if (command === undefined) return;
    const declares = DECLARERS.has(command);
    if (!declares && !WRITERS.has(command)) return;
    const args = words.slice(count + 1);
    // printf sets a variable only through -v; its other arguments are text.
    const named = command === 'printf' ? args.filter((_, j) => args[j - 1]?.value === '-v') : args;
    const hit = named.find((w) => (declares ? this.declared(w.value) : this.mentioned(w.value)));
    if (hit) this.record({ line: hit.line, how: 'builtin', via: command });
  }

  // `NAME`, `NAME=…` or `NAME+=…`: an argument of export, declare and the like that sets ours.
  private declared(value: string): boolean {
    return value === this.name || value.startsWith(`${this.name}=`) || value.startsWith(`${this.name}+=`);
  }

  // Ours as a whole word anywhere in an argument of read, unset, eval…
  private mentioned(value: string): boolean {
    for (let i = value.indexOf(this.name); i >= 0; i = value.indexOf(this.name, i + 1)) {
      const left = value[i - 1] ?? ' ';
      const right = value[i + this.name.length] ?? ' ';
      if (!NAME_CHAR.test(left) && !NAME_CHAR.test(right)) return true;
    }
    return false;
  }

  // Moves past blanks and line continuations; returns the new position.
  private skipBlanks(): number {
    for (;;) {
      const c = this.src[this.pos];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && this.src[this.pos + 1] === '\n') {
        this.pos += 2;
        this.line++;
      } else return this.pos;
    }
  }

  private token(): Token {
    this.skipBlanks();
    if (this.src[this.pos] === '#') {
      const nl = this.src.indexOf('\n', this.pos);
      this.pos = nl < 0 ? this.src.length : nl;
    }
    const line = this.line;
    const c = this.src[this.pos];
    if (c === undefined) return { kind: 'eof', line };
    if (c === '\n') {
      this.pos++;
      this.line++;
      this.readHereDocuments();
      return { kind: 'op', op: '\n', line };
    }
    const isSubstitution = (c === '<' || c === '>') && this.src[this.pos + 1] === '(';
    if (!isSubstitution) {
      const op = OPERATORS.find((o) => this.src.startsWith(o, this.pos));
      if (op) {
        this.pos += op.length;
        return { kind: 'op', op, line };
      }
    }
    return this.word();
  }

  private word(): Token {
    const start = this.pos;
    const line = this.line;
    let value = '';
    let literal = true;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined || c === ' ' || c === '\t' || c === '\r' || c === '\n') break;
      const next = this.src[this.pos + 1];
      if ((c === '<' || c === '>') && next === '(') {
        this.pos += 2;
        this.substitution();
        literal = false;
        continue;
      }
      if (c === '(' && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=$/.test(this.src.slice(start, this.pos))) {
        this.pos++;
        this.arithmeticUntilClose(0);
        literal = false;
        continue;
      }
      if (';&|<>()'.includes(c)) break;
      if (c === '\\') {
        if (next === '\n') this.line++;
        else value += next ?? '\\';
        this.pos += 2;
      } else if (c === "'") {
        value += this.singleQuoted(this.pos + 1);
      } else if (c === '$' && next === "'") {
        this.ansiQuoted();
        literal = false;
      } else if (c === '"') {
        this.pos++;
        const q = this.expandable('"');
        value += q.value;
        literal &&= q.literal;
      } else if (this.expansion(c)) {
        literal = false;
      } else {
        value += c;
        this.pos++;
      }
    }
    // A number right before `<` or `>` is the file descriptor of a redirection, not a word.
    const raw = this.src.slice(start, this.pos);
    if (/^\d+$/.test(raw) && '<>'.includes(this.src[this.pos] ?? ' ')) return this.token();
    return { kind: 'word', line, raw, value, literal };
  }

  private singleQuoted(from: number): string {
    const end = this.src.indexOf("'", from);
    if (end < 0) throw new ScanError('a single quote is never closed', this.line);
    const text = this.src.slice(from, end);
    this.line += countLines(text);
    this.pos = end + 1;
    return text;
  }

  private ansiQuoted(): void {
    let p = this.pos + 2;
    for (;;) {
      const c = this.src[p];
      if (c === undefined) throw new ScanError("a $'…' quote is never closed", this.line);
      if (c === '\\') p += 2;
      else if (c === "'") break;
      else p++;
    }
    this.line += countLines(this.src.slice(this.pos, p));
    this.pos = p + 1;
  }

  // Inside double quotes (`close` = '"') or an expanding here-document body (`close` = end of text
  // given by `limit`): only `\`, `$` and backquotes are special.
  private expandable(close: '"' | '', limit = this.src.length): { value: string; literal: boolean } {
    this.enter();
    const line = this.line;
    let value = '';
    let literal = true;
    for (;;) {
      if (this.pos > limit)
        throw new ScanError(`an expansion from line ${line} runs past its here-document`, this.line);
      const c = this.src[this.pos];
      if (close === '' && this.pos === limit) break;
      if (c === undefined) throw new ScanError(`a double quote from line ${line} is never closed`, this.line);
      if (c === close) {
        this.pos++;
        break;
      }
      const next = this.src[this.pos + 1];
      if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next === '\n') this.line++;
        else value += next;
        this.pos += 2;
      } else if (this.expansion(c)) {
        literal = false;
      } else {
        if (c === '\n') this.line++;
        value += c;
        this.pos++;
      }
    }
    this.nest--;
    return { value, literal };
  }

  // At a backquote or `$`: reads the substitution or expansion and returns true; false otherwise.
  private expansion(c: string): boolean {
    if (c !== '`') return c === '$' && this.dollar();
    this.backquoted();
    return true;
  }

  // At `$`: reads an expansion and returns true, or returns false for a plain `$`.
  private dollar(): boolean {
    const next = this.src[this.pos + 1];
    if (next === '(') {
      if (this.src[this.pos + 2] === '(') {
        this.pos += 3;
        this.arithmeticUntilClose(2);
      } else {
        this.pos += 2;
        this.substitution();
      }
      return true;
    }
    if (next === '{') {
      this.pos += 2;
      this.parameter();
      return true;
    }
    if (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
      this.pos += 2;
      if (/[A-Za-z_]/.test(next)) while (NAME_CHAR.test(this.src[this.pos] ?? '')) this.pos++;
      return true;
    }
    return false;
  }

  // After `${`: to its `}`; `${NAME=…}` and `${NAME:=…}` set ours.
  private parameter(): void {
    const head = /^([A-Za-z_][A-Za-z0-9_]*)(:?=)?/.exec(this.src.slice(this.pos, this.pos + 200));
    if (head?.[1] === this.name && head[2]) this.record({ line: this.line, how: 'expansion' });
    this.enter();
    this.toClosing('{', '}', 'a ${');
    this.pos++;
    this.nest--;
  }

  // After `$(`, `<(` or `>(`: the commands up to its `)`.
  private substitution(): void {
    this.push({ block: 'command substitution', line: this.line, end: ')' });
    this.commands(this.stack.length);
  }

  // After `((`, `$((` (open = 2) or `NAME=(` (open = 0): to the matching `))` or `)`.
  private arithmeticUntilClose(open: 0 | 2): void {
    this.enter();
    const start = this.pos;
    const line = this.line;
    this.toClosing('(', ')', 'a parenthesis');
    if (open === 2 && this.src[this.pos + 1] !== ')')
      throw new ScanError(`the arithmetic from line ${line} does not end with ))`, this.line);
    if (open === 2 && this.arithmetic.test(this.src.slice(start, this.pos)))
      this.record({ line, how: 'expansion', via: 'arithmetic' });
    this.pos += open === 2 ? 2 : 1;
    this.nest--;
  }

  // To the `close` that matches, `open` counted and quotes, escapes and expansions skipped; `what`
  // names the construct when the text ends first.
  private toClosing(open: string, close: string, what: string): void {
    const line = this.line;
    let depth = 0;
    for (;;) {
      const c = this.src[this.pos];
      if (c === undefined) throw new ScanError(`${what} from line ${line} is never closed`, this.line);
      if (c === close && depth === 0) return;
      if (c === '\\') {
        if (this.src[this.pos + 1] === '\n') this.line++;
        this.pos += 2;
      } else if (c === "'") this.singleQuoted(this.pos + 1);
      else if (c === '"') {
        this.pos++;
        this.expandable('"');
      } else if (!this.expansion(c)) {
        if (c === open) depth++;
        if (c === close) depth--;
        if (c === '\n') this.line++;
        this.pos++;
      }
    }
  }

  // At a backquote: its text (with `\``, `\\` and `\$` unescaped) is read as a script of its own.
  private backquoted(): void {
    const line = this.line;
    let p = this.pos + 1;
    let inner = '';
    for (;;) {
      const c = this.src[p];
      if (c === undefined) throw new ScanError(`a backquote from line ${line} is never closed`, this.line);
      if (c === '`') break;
      if (c === '\\' && '`\\$'.includes(this.src[p + 1] ?? '')) {
        inner += this.src[p + 1];
        p += 2;
      } else {
        inner += c;
        p++;
      }
    }
    this.enter();
    const frames: Frame[] = [...this.outer, ...this.stack, { block: 'command substitution', line, end: ')' }];
    const sub = new Scanner(inner, this.name, line - 1, frames, this.depth());
    this.nest--;
    sub.script();
    this.writes.push(...sub.writes);
    this.line += countLines(this.src.slice(this.pos, p));
    this.pos = p + 1;
  }

  private hereDocument(delimiter: Word, strip: boolean): void {
    if (delimiter.raw.includes('$') || delimiter.raw.includes('`'))
      throw new ScanError('a here-document delimiter with an expansion in it', delimiter.line);
    if (this.heredocs.length >= SHELL_LIMITS.heredocs)
      throw new ScanError(`more than ${SHELL_LIMITS.heredocs} here-documents on one line`, delimiter.line);
    const expands = !/["'\\]/.test(delimiter.raw);
    this.heredocs.push({ delimiter: delimiter.value, strip, expands, line: delimiter.line });
  }

  // After a newline: the bodies of the here-documents opened on the line before, in order.
  private readHereDocuments(): void {
    const docs = this.heredocs.splice(0);
    for (const doc of docs) {
      const bodyStart = this.pos;
      for (;;) {
        if (this.pos >= this.src.length)
          throw new ScanError(`the here-document from line ${doc.line} has no end`, this.line);
        const nl = this.src.indexOf('\n', this.pos);
        const end = nl < 0 ? this.src.length : nl;
        const text = this.src.slice(this.pos, end).replace(/\r$/, '');
        if ((doc.strip ? text.replace(/^\t+/, '') : text) === doc.delimiter) {
          const after = nl < 0 ? end : nl + 1;
          if (doc.expands) this.bodyExpansions(bodyStart, this.pos);
          this.pos = after;
          this.line++;
          break;
        }
        this.pos = nl < 0 ? end : nl + 1;
        this.line++;
      }
    }
  }

  // An unquoted delimiter's body is expanded when the command runs: `${NAME:=…}` there sets ours.
  private bodyExpansions(start: number, end: number): void {
    const resume = { pos: this.pos, line: this.line };
    this.line -= countLines(this.src.slice(start, end));
    this.pos = start;
    this.expandable('', end);
    this.pos = resume.pos;
    this.line = resume.line;
  }
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
