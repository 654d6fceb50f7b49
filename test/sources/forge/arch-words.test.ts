// Architecture words real release names use (issue 21): `Linux64`, `lin64`, `64bit`, `64-bit`,
// `linuxx86_64`, `ubu64` and the 32-bit ones, on made-up names and on the 300 real names of the
// corpus (../shared/corpus/asset-names.txt; skipped with one line when absent).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { archesInName } from '../../../src/sources/forge/arch.js';
import { corpusFile, skipWithoutCorpus } from '../../helpers/corpus.js';

const WORDS: [string, string][] = [
  ['linux64', 'x86_64'],
  ['lin64', 'x86_64'],
  ['64bit', 'x86_64'],
  ['64-bit', 'x86_64'],
  ['linuxx86_64', 'x86_64'],
  ['ubu64', 'x86_64'],
  ['linux32', 'i686'],
  ['lin32', 'i686'],
  ['32bit', 'i686'],
  ['32-bit', 'i686'],
  ['ubu32', 'i686'],
];

void describe('architecture words', () => {
  void test('each word, in any case, between separators, names its architecture', () => {
    for (const [word, arch] of WORDS) {
      for (const name of [
        `App-1.0-${word}.AppImage`,
        `App_${word.toUpperCase()}_1.0.AppImage`,
        `${word}-app.AppImage`,
      ])
        assert.deepEqual(archesInName(name), [arch], name);
    }
  });

  void test('inside a longer word or number they name nothing', () => {
    for (const name of [
      'Pulse-40.0.0-beta.464.AppImage',
      'Berlin64x.AppImage',
      'App-1.64bits.AppImage',
      'App-v232bit.AppImage',
    ])
      assert.deepEqual(archesInName(name), [], name);
  });

  void test(
    'the corpus: every real name with one of the words is classified, none as two architectures',
    { skip: skipWithoutCorpus() },
    () => {
      const file = corpusFile('asset-names.txt');
      if (!file) return;
      const names = readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.split('\t')[0]?.trim() ?? '')
        .filter((n) => n !== '');
      let withWord = 0;
      for (const name of names) {
        assert.ok(archesInName(name).length <= 1, `${name}: ${archesInName(name).join(', ')}`);
        const word = WORDS.find(([w]) => new RegExp(`(?<![a-z0-9])${w}(?![a-z0-9])`, 'i').test(name));
        if (!word) continue;
        withWord++;
        assert.deepEqual(archesInName(name), [word[1]], name);
      }
      const classified = names.filter((n) => archesInName(n).length > 0).length;
      console.log(
        `# corpus: ${classified} of ${names.length} names classified; ${withWord} by the words above`,
      );
      assert.ok(withWord > 0, 'the corpus has names with these words');
    },
  );
});
