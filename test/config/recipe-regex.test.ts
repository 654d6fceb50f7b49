import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compileRecipeRegex,
  isRegexProblem,
  MAX_RECIPE_REGEX_LENGTH,
} from '../../src/config/recipe-regex.js';

function problem(source: string): { offset: number; message: string } | undefined {
  const r = compileRecipeRegex(source);
  return isRegexProblem(r) ? r : undefined;
}

void describe('recipe regexes (RE2 syntax)', () => {
  void test("the audit's catastrophic patterns are accepted: RE2 matches them in linear time", () => {
    for (const source of ['^(a|a)*$', '^(a|aa)+$', '^(a+)+$'])
      assert.equal(problem(source), undefined, source);
  });

  void test('unsupported syntax is reported at its offset', () => {
    const cases: [string, number, RegExp][] = [
      ['(a)\\1', 3, /backreferences/],
      ['(?<n>a)\\k<n>', 7, /named backreferences/],
      ['ab(?=c)', 2, /lookahead/],
      ['ab(?!c)', 2, /lookahead/],
      ['ab(?<=c)', 2, /lookbehind/],
      ['ab(?<!c)', 2, /lookbehind/],
      ['[ab[c]]', 3, /nested class/],
      ['[\\w--\\d]', 3, /set operations/],
      ['[a~~b]', 2, /set operations/],
      ['(?x) a', 2, /verbose flag/],
      ['x{2,1001}', 1, /invalid repeat count/],
      ['abc)', 3, /unmatched "\)"/],
      ['a(b(c)', 1, /missing closing/],
    ];
    for (const [source, offset, message] of cases) {
      const p = problem(source);
      assert.ok(p, source);
      assert.equal(p.offset, offset, `${source}: ${p.message}`);
      assert.match(p.message, message, source);
    }
  });

  void test('what RE2 and Rust read alike passes: POSIX classes, escaped brackets, named groups, flags', () => {
    for (const source of [
      '[[:digit:][:alpha:]_-]+',
      '[[:^space:]]+',
      '\\[x\\]',
      '[\\[\\]]',
      '(?P<v>[0-9.]+)',
      '(?<v>[0-9.]+)',
      '(?i)a(?-i:B)',
      '(?s).',
      '\\d+\\.AppImage',
      '\\p{L}+',
      '[]a]',
      '[^]a]',
    ])
      assert.equal(problem(source), undefined, source);
  });

  void test('an over-long pattern is refused', () => {
    assert.match(problem('a'.repeat(MAX_RECIPE_REGEX_LENGTH + 1))?.message ?? '', /longer than/);
  });
});
