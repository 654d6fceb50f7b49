import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import picomatch from 'picomatch';
import { compileGlob } from '../../src/config/recipe-glob.js';
import { matchingAssets } from '../../src/sources/forge/asset-match.js';

const GLOBS = [
  '*.AppImage',
  'App-*-x86_64.AppImage',
  '*x86_64*.AppImage',
  'foo-?-[0-9].{AppImage,zip}',
  '*-{x86_64,amd64}.AppImage',
  '[[:digit:]]*',
  'a\\*b',
  'a/*.AppImage',
  '**/*.AppImage',
  '+(a|b).x',
  'Foo*',
  '*',
];
const NAMES = [
  'x.AppImage',
  '.AppImage',
  'App-1.0-x86_64.AppImage',
  'App--x86_64.AppImage',
  'foo-1-2.zip',
  'q-amd64.AppImage',
  '1abc',
  'a*b',
  'axb',
  'a/b.AppImage',
  'a/.AppImage',
  'c/d/e.AppImage',
  'ab.x',
  'Foo',
  'x.APPIMAGE',
  '..AppImage',
];

void describe('recipe globs on RE2', () => {
  void test('match exactly as picomatch does', () => {
    for (const glob of GLOBS)
      for (const nocase of [false, true]) {
        const ours = compileGlob(glob, { dot: true, nocase });
        const theirs = picomatch(glob, { dot: true, nocase });
        for (const name of NAMES) assert.equal(ours(name), theirs(name), `${glob} ${nocase} ${name}`);
      }
  });

  void test('a hostile asset name cannot stall matching', () => {
    // With picomatch's backtracking regex this name took about 10 s against the glob.
    const assets = [{ name: 'a'.repeat(5000) }];
    assert.equal(matchingAssets(assets, { glob: '*a*a*a*a*a*b', nodeArch: 'x64' }).length, 0);
  });
});
