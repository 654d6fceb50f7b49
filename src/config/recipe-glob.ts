/**
 * Recipe globs (`asset_match`, `inner_asset_match`) keep picomatch's syntax and meaning, but run on
 * RE2: picomatch turns `*` into lazy `[^/]*?` runs that a backtracking engine explores in
 * polynomial time, and the names they meet come from forges and archives (a 200-character asset
 * name against `*a*a*a*a*b` took 10 s). picomatch's only lookarounds refuse empty names and `.`/`..`
 * path segments; that is checked here directly, and the regex runs without them.
 */
import picomatch from 'picomatch';
import { RE2JS } from 're2js';
import { MAX_FILE_NAME_BYTES } from '../core/file-names.js';

const DOT_SEGMENT_GUARDS = ['(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{1,2}(?:\\/|$))', '(?=.)'];

/** Compiles a glob to a matcher with linear-time matching (same options as picomatch). */
export function compileGlob(
  glob: string,
  options: { dot: boolean; nocase?: boolean },
): (name: string) => boolean {
  const js = picomatch.makeRe(glob, { dot: options.dot, nocase: options.nocase === true });
  let source = js.source;
  for (const guard of DOT_SEGMENT_GUARDS) source = source.split(guard).join('');
  const re = /\(\?[=!<]/.test(source) ? undefined : re2(source, js.flags.includes('i'));
  if (re) return (name) => !hasDotSegment(name) && re.test(name);
  // Extglob negations such as !(x) need lookaround: keep picomatch, on names no longer than a file
  // name may be, which bounds the backtracking.
  const isMatch = picomatch(glob, { dot: options.dot, nocase: options.nocase === true });
  return (name) => name.length <= MAX_FILE_NAME_BYTES * 4 && !hasDotSegment(name) && isMatch(name);
}

function re2(source: string, nocase: boolean): RE2JS | undefined {
  try {
    return RE2JS.compile(source, nocase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return undefined;
  }
}

function hasDotSegment(name: string): boolean {
  return name === '' || name.split('/').some((s) => s === '.' || s === '..');
}
