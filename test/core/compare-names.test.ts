import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../helpers/seeded-random.js';
import { compareNames, namePrimaryKey } from '../../src/core/compare-names.js';

const sign = (n: number): number => Math.sign(n);
const ALPHABET = 'aAbBzZ09_-.+';

function randomName(rand: () => number, alphabet: string): string {
  const length = 1 + Math.floor(rand() * 6);
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}

void test('orders app names exactly as localeCompare does', () => {
  const rand = seededRandom(7);
  for (let i = 0; i < 20_000; i++) {
    const a = randomName(rand, ALPHABET);
    const b = rand() < 0.2 ? a.toUpperCase() : randomName(rand, ALPHABET);
    assert.equal(sign(compareNames(a, b)), sign(a.localeCompare(b)), `${a} vs ${b}`);
  }
});

void test('names with other characters are ordered by localeCompare itself', () => {
  const rand = seededRandom(11);
  for (let i = 0; i < 5_000; i++) {
    const a = randomName(rand, `${ALPHABET}é/ Ä`);
    const b = randomName(rand, `${ALPHABET}é/ Ä`);
    assert.equal(sign(compareNames(a, b)), sign(a.localeCompare(b)), `${a} vs ${b}`);
  }
});

void test('sorts a list of recipe names as the collator would', () => {
  const names = ['obsidian', 'Obsidian', 'app_b', 'app-b', 'app.b', 'app+b', 'app0', 'ab1', 'aB', 'Ab', 'ab'];
  assert.deepEqual(
    [...names].sort(compareNames),
    [...names].sort((a, b) => a.localeCompare(b)),
  );
});

void test('primary keys order names as compareNames does wherever they differ', () => {
  const rand = seededRandom(13);
  for (let i = 0; i < 20_000; i++) {
    const a = randomName(rand, ALPHABET);
    const b = rand() < 0.2 ? a.toUpperCase() : randomName(rand, ALPHABET);
    const [ka, kb] = [namePrimaryKey(a), namePrimaryKey(b)];
    assert.ok(ka !== undefined && kb !== undefined, `${a} ${b}`);
    if (ka !== kb) assert.equal(ka < kb ? -1 : 1, sign(compareNames(a, b)), `${a} vs ${b}`);
    else
      assert.equal(a.toLowerCase(), b.toLowerCase(), `${a} vs ${b}: equal keys only for a case difference`);
  }
  assert.equal(namePrimaryKey('café'), undefined);
  assert.equal(namePrimaryKey('a b'), undefined);
});
