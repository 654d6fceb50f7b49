// Globs made only of PLAIN_GLOB's characters skip picomatch when a recipe is checked (start-up):
// that is right only if picomatch compiles every one of them, which this checks on many.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import picomatch from 'picomatch';
import { globError, PLAIN_GLOB } from '../../src/config/recipe-checks.js';

const ALPHABET = 'aZ09._*?+/ -';

void test('every glob of the plain characters compiles, and globError says so without picomatch', async () => {
  let s = 7;
  const next = (): number => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  for (let i = 0; i < 3000; i++) {
    const length = 1 + Math.floor(next() * 24);
    let glob = '';
    for (let j = 0; j < length; j++) glob += ALPHABET[Math.floor(next() * ALPHABET.length)] ?? '';
    assert.ok(PLAIN_GLOB.test(glob), glob);
    assert.doesNotThrow(() => picomatch.makeRe(glob, { strictBrackets: true }), glob);
    assert.equal(await globError(glob), undefined, glob);
  }
});

void test('a glob outside the plain characters still goes to picomatch and its error', async () => {
  assert.equal(PLAIN_GLOB.test('app-[0-9.AppImage'), false);
  assert.match((await globError('app-[0-9.AppImage')) ?? '', /Missing closing/);
  // Empty is not plain: picomatch refuses it, and so does the check.
  assert.equal(await globError(''), 'Expected a non-empty string');
  assert.equal(await globError('app-{x,y}.AppImage'), undefined);
});
