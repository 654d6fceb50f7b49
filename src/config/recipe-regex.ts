/**
 * Recipe regular expressions (`asset_match_regex`) run on RE2 (the re2js port): matching time is
 * linear in the input whatever the pattern, so a recipe cannot stall a run, and the syntax is the
 * one fp-appimage-updater's Rust `regex` crate reads (RE2 family: inline flags such as `(?i)`,
 * POSIX classes inside brackets, no backreferences or lookaround). A pattern is a full match, as
 * `^(?:re)$`. Syntax that RE2 would read differently from Rust, or not at all, is reported with its
 * offset so `validate` can point at it.
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';

/** Longest accepted pattern (characters); asset names are short, a longer pattern is a mistake. */
export const MAX_RECIPE_REGEX_LENGTH = 1000;

/** A problem in a pattern: the message and the 0-based offset in the pattern it concerns. */
export interface RegexProblem {
  offset: number;
  message: string;
}

/** A compiled recipe regex; `matches` is a full match of the whole name. */
export interface RecipeRegex {
  source: string;
  matches(name: string): boolean;
}

/** Compiles a pattern, or returns the first problem found in it. */
export function compileRecipeRegex(source: string): RecipeRegex | RegexProblem {
  if (source.length > MAX_RECIPE_REGEX_LENGTH)
    return { offset: 0, message: `is longer than ${MAX_RECIPE_REGEX_LENGTH} characters` };
  const unsupported = scanUnsupported(source);
  if (unsupported) return unsupported;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    if (!(err instanceof RE2JSSyntaxException)) throw err;
    const at = err.input ? source.indexOf(err.input) : -1;
    return { offset: Math.max(at, 0), message: `invalid regular expression: ${err.error}` };
  }
  return { source, matches: (name) => re.testExact(name) };
}

/** True when `compileRecipeRegex` failed. */
export function isRegexProblem(v: RecipeRegex | RegexProblem): v is RegexProblem {
  return 'message' in v;
}

const FLAG_TEXT: Record<string, string> = {
  x: 'the verbose flag x (ignore whitespace) is not supported; remove the spaces and the flag',
  R: 'the CRLF flag R is not supported',
  u: 'the flag u is not supported (classes are Unicode-aware already; \\d, \\w, \\s and \\b are ASCII)',
};

/**
 * Finds syntax RE2 rejects with a vague message (backreferences, lookaround) or accepts with a
 * meaning other than Rust's (nested classes and class set operations, which RE2 reads as literal
 * characters), so the report names the construct and its exact position.
 */
function scanUnsupported(s: string): RegexProblem | undefined {
  // RE2 names the whole pattern for unbalanced parentheses; track them to point at the culprit.
  const open: number[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\') {
      const n = s[i + 1] ?? '';
      if (/[1-9]/.test(n)) return { offset: i, message: 'backreferences (\\1 ...) are not supported' };
      if (n === 'k' && s[i + 2] === '<')
        return { offset: i, message: 'named backreferences (\\k<name>) are not supported' };
      i += 2;
      continue;
    }
    if (c === '[') {
      const end = scanClass(s, i);
      if (typeof end !== 'number') return end;
      i = end;
      continue;
    }
    if (c === ')') {
      if (open.pop() === undefined) return { offset: i, message: 'unmatched ")"' };
    } else if (c === '(') open.push(i);
    if (c === '(' && s[i + 1] === '?') {
      const rest = s.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!'))
        return { offset: i, message: 'lookahead ((?= and (?!) is not supported' };
      if (rest === '<=' || rest === '<!')
        return { offset: i, message: 'lookbehind ((?<= and (?<!) is not supported' };
      const flags = /^[A-Za-z-]*/.exec(s.slice(i + 2))?.[0] ?? '';
      for (let f = 0; f < flags.length; f++) {
        const text = FLAG_TEXT[flags[f] ?? ''];
        if (text) return { offset: i + 2 + f, message: text };
      }
    }
    i++;
  }
  const unclosed = open.pop();
  if (unclosed !== undefined) return { offset: unclosed, message: 'missing closing ")" for this group' };
  return undefined;
}

// Returns the index after the class that starts at `start`, or the problem inside it.
function scanClass(s: string, start: number): number | RegexProblem {
  let i = start + 1;
  if (s[i] === '^') i++;
  if (s[i] === ']') i++; // a leading ] is a literal
  while (i < s.length) {
    const c = s[i];
    if (c === ']') return i + 1;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '[') {
      if (s[i + 1] === ':') {
        const close = s.indexOf(':]', i + 2);
        if (close !== -1) {
          i = close + 2;
          continue;
        }
      }
      return {
        offset: i,
        message:
          'a "[" inside a character class is a nested class in Rust but a literal "[" here; escape it as \\[ or use [[:name:]] for a POSIX class',
      };
    }
    const pair = s.slice(i, i + 2);
    if (pair === '&&' || pair === '--' || pair === '~~') {
      return {
        offset: i,
        message: `class set operations ("${pair}") are not supported; escape the characters (\\${pair[0]}\\${pair[0]}) to mean them literally`,
      };
    }
    i++;
  }
  // An unclosed class: RE2 reports it with its own message.
  return s.length;
}
