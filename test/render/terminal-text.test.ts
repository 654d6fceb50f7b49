import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FIELD_MAX, guardTerminal, jsonText, termMessage, termText } from '../../src/render/terminal-text.js';

void describe('terminal text', () => {
  void test('control characters are shown escaped', () => {
    assert.equal(termText('a\x1b[2Jb\nc\rd\te\x00f\x7fg\x9bh'), 'a\\x1b[2Jb\\nc\\rd\\te\\x00f\\x7fg\\x9bh');
  });

  void test('bidirectional overrides cannot reorder a line', () => {
    assert.equal(termText('evil\u202egnp.exe'), 'evil\\u{202e}gnp.exe');
    assert.equal(termText('x\u2066y\u2069'), 'x\\u{2066}y\\u{2069}');
  });

  void test('plain text, Unicode letters and emoji pass unchanged', () => {
    assert.equal(termText('Übersicht 1.0 — 日本語 🚀'), 'Übersicht 1.0 — 日本語 🚀');
  });

  void test('length is bounded and the cut is said', () => {
    const long = 'v'.repeat(FIELD_MAX + 50);
    assert.equal(termText(long), `${'v'.repeat(FIELD_MAX)}…(50 more characters)`);
    assert.equal(termMessage('m'.repeat(3000)).startsWith('m'.repeat(2000)), true);
    assert.match(termMessage('m'.repeat(3000)), /…\(1000 more characters\)$/);
  });

  void test('the last guard keeps newlines, tabs and colour, escapes everything else', () => {
    const ours = '\x1b[1mbold\x1b[22m\tcol\nnext';
    assert.equal(guardTerminal(ours), ours);
    assert.equal(guardTerminal('a\x1b]0;title\x07b\rc\x1b[2J'), 'a\\x1b]0;title\\x07b\\rc\\x1b[2J');
  });
});

void test('jsonText: DEL, C1 and bidi controls as \\uXXXX, the same JSON value', () => {
  const value = { s: 'a\u007fb\u009b31mc\u0085\u202e\u2066d', n: [1, 'é✓'] };
  const text = jsonText(JSON.stringify(value));
  assert.doesNotMatch(text, /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  assert.deepEqual(JSON.parse(text), value);
  assert.equal(jsonText('{"a":"plain é"}'), '{"a":"plain é"}');
});
