// childPath is path.join for an entry of a folder, without normalising a path that already is.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { childPath } from '../../src/core/child-path.js';

void test('childPath gives path.join’s answer for every folder and name', () => {
  const dirs = [
    '/',
    '/a',
    '/a/b',
    '/a/b/',
    '/a//b',
    '/a/./b',
    '/a/../b',
    '/..',
    '/.',
    '/a/.hidden',
    '/a/..x',
    'rel/dir',
    '',
    '.',
    '/a/b/.',
    '/a/b/..',
    '//a',
  ];
  const names = ['x.yml', '.x', '..x', 'x y', 'é', '.', '..', '', 'a/b', '../x', 'x/'];
  for (const dir of dirs)
    for (const name of names) assert.equal(childPath(dir, name), join(dir, name), `${dir} + ${name}`);
});
