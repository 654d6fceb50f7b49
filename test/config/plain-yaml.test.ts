// The plain-YAML reader (src/config/plain-yaml.ts) is a fast path beside the yaml library: whatever
// it accepts it must read exactly as the library does, and what it declines goes to the library.
// Checked on recipes as people write them and on thousands of small mutations of them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPlainYaml } from '../../src/config/plain-yaml.js';
import { starterRecipe } from '../../src/config/templates.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { assertReaderAgrees } from '../helpers/yaml-agreement.js';

const SEEDS: string[] = [
  'name: obsidian\nstrategy:\n  strategy: forge\n  repository: https://github.com/obsidianmd/obsidian-releases\n  asset_match: "Obsidian-*.AppImage"\n',
  "name: 'tool'\nstrategy:\n  strategy: direct\n  url: https://example.org/tool.AppImage\n  check_method: etag\nignore: false\n",
  '# comment\nname: x # trailing\n\nstrategy:\n  strategy: script\n  script_path: ./resolver.sh\ndesktop_exec_args:\n  - --no-sandbox\n  - "--flag"\ndesktop_env:\n  A: b\n',
  'name: x\nstrategy:\n  strategy: forge\n  repository: https://gitlab.com/a/b\nzsync: auto\ndelta: off\nretries: 3\nstorage_dir: ~/Apps\n',
  'name: x\ndesktop_exec_args:\n- a\n- b\nsymlink_dir:\nstrategy:\n  strategy: forge\n  repository: https://h/o/r\n',
  "name: it's\nnote: 'it''s quoted'\nempty:\nnested:\n  deeper:\n    deepest: 1\n  back: 0\n",
  'name: x\nkey: "a: b # not a comment"\nother: a#b\nlast: true\n',
  'name: x\nignore: True\nzsync: FALSE\nsigning_key: Null\nn: NULL\nm: null\no: False\np: TRUE\nretries: 0\n',
  ...(['forge', 'direct', 'script'] as const).map((s) => starterRecipe('app', s, '../../recipe.schema.json')),
];

// Declined: outside the subset, or invalid YAML the library must report itself.
const DECLINED = [
  'name: a\n\tstrategy: {}\n',
  'name: a\nname: b\n',
  'name: [a, b]\n',
  'name: &x a\nother: *x\n',
  'text: |\n  block\n',
  'name: a: b\n',
  'name: a\n  continued\n',
  'version: 1.5\n',
  'n: 0x1f\n',
  'n: 007\n',
  'n: -1\n',
  '- a\n- b\n',
  '',
  '# only a comment\n',
  '---\nname: a\n',
  'name: "esc\\n"\n',
  'name: "open\n',
  'name: a\r\n',
  '\ufeffname: a\n',
  '__proto__: a\n',
  'true: a\n',
  'name:a\n',
  '  name: a\n',
  'a:\n  b: 1\n c: 2\n',
];

const assertAgrees = (text: string): boolean => assertReaderAgrees(readPlainYaml, text);

const SIGNIFICANT = [
  ':',
  ' ',
  '#',
  '-',
  "'",
  '"',
  '\n',
  '\t',
  '[',
  '{',
  '&',
  '*',
  '!',
  '|',
  '>',
  '0',
  '.',
  '~',
  '?',
  '%',
  '@',
  '\\',
  'x',
  '1',
];

void describe('the plain-YAML reader', () => {
  void test('reads recipes as written, scaffolds included, exactly as the library does', () => {
    for (const text of SEEDS)
      assert.ok(assertAgrees(text), `declined a plain recipe: ${JSON.stringify(text)}`);
  });

  void test('declines everything outside its subset, valid YAML or not', () => {
    for (const text of DECLINED) assert.equal(readPlainYaml(text), undefined, JSON.stringify(text));
  });

  void test('never disagrees with the library on mutated recipes', () => {
    const next = seededRandom(19);
    let accepted = 0;
    for (let i = 0; i < 6000; i++) {
      let text = SEEDS[Math.floor(next() * SEEDS.length)] ?? '';
      for (let m = 1 + Math.floor(next() * 3); m > 0; m--) {
        const at = Math.floor(next() * (text.length + 1));
        const ch = SIGNIFICANT[Math.floor(next() * SIGNIFICANT.length)] ?? '';
        const op = next();
        text =
          op < 0.4
            ? text.slice(0, at) + ch + text.slice(at)
            : op < 0.7
              ? text.slice(0, at) + text.slice(at + 1)
              : text.slice(0, at) + ch + text.slice(at + 1);
      }
      if (assertAgrees(text)) accepted++;
    }
    // Most mutations leave a recipe in the subset: the agreement was tested, not skipped.
    assert.ok(accepted > 1000, `only ${accepted} mutated recipes were read`);
  });
});
