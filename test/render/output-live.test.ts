import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { createOutput } from '../../src/render/output.js';

function tty(): PassThrough {
  return Object.assign(new PassThrough(), { isTTY: true });
}

const flags = { json: false, quiet: false, verbose: false, color: true };

void describe('output: when progress bars are drawn', () => {
  void test('a terminal gets bars', () => {
    assert.equal(createOutput(flags, tty(), tty(), {}).live, true);
  });

  void test('NO_COLOR and --no-color take the colours away, not the bars (no-color.org)', () => {
    const noColor = createOutput(flags, tty(), tty(), { NO_COLOR: '1' });
    assert.equal(noColor.live, true);
    assert.equal(noColor.ce.red('x'), 'x');
    const flag = createOutput({ ...flags, color: false }, tty(), tty(), {});
    assert.equal(flag.live, true);
    assert.equal(flag.c.green('x'), 'x');
  });

  void test('TERM=dumb cannot move the cursor: no bars', () => {
    assert.equal(createOutput(flags, tty(), tty(), { TERM: 'dumb' }).live, false);
  });

  void test('an empty NO_COLOR is unset, as no-color.org says', () => {
    assert.equal(createOutput(flags, tty(), tty(), { NO_COLOR: '' }).live, true);
  });

  void test('a pipe, --json and --quiet get no bars', () => {
    assert.equal(createOutput(flags, tty(), new PassThrough(), {}).live, false);
    assert.equal(createOutput({ ...flags, json: true }, tty(), tty(), {}).live, false);
    assert.equal(createOutput({ ...flags, quiet: true }, tty(), tty(), {}).live, false);
  });
});

void describe('output: the width list fits', () => {
  const sized = (columns: number): PassThrough => Object.assign(tty(), { columns });

  void test('a terminal: its width; COLUMNS, when a positive number, wins', () => {
    assert.equal(createOutput(flags, sized(132), tty(), {}).columns, 132);
    assert.equal(createOutput(flags, sized(132), tty(), { COLUMNS: '90' }).columns, 90);
    assert.equal(createOutput(flags, sized(132), tty(), { COLUMNS: 'wide' }).columns, 132);
    assert.equal(createOutput(flags, sized(132), tty(), { COLUMNS: '0' }).columns, 132);
  });

  void test('a terminal that reports no size is 80 columns', () => {
    assert.equal(createOutput(flags, tty(), tty(), {}).columns, 80);
  });

  void test('a pipe has no width: output stays complete, whatever COLUMNS says', () => {
    assert.equal(createOutput(flags, new PassThrough(), tty(), { COLUMNS: '40' }).columns, undefined);
  });
});
