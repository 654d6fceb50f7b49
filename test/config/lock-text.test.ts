// The lock-file reader (src/config/lock-text.ts) is a fast path beside the yaml library: whatever it
// accepts it must read exactly as the library does, and what it declines goes to the library.
// Checked on lock files as `lock` writes them and on thousands of small mutations of them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { renderLockFile, type LockEntry } from '../../src/config/lock-file.js';
import { readLockText } from '../../src/config/lock-text.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { assertReaderAgrees } from '../helpers/yaml-agreement.js';

const entry = (version: string, extra: Partial<LockEntry> = {}): LockEntry => ({
  source: 'https://github.com/o/r',
  version,
  tag: `v${version}`,
  identity: `v${version}/r-${version}.AppImage#1234`,
  asset: `r-${version}-x86_64.AppImage`,
  url: `https://github.com/o/r/releases/download/v${version}/r-${version}-x86_64.AppImage`,
  size: 1234,
  sha256: 'ab'.repeat(32),
  ...extra,
});

const SEEDS: Promise<string>[] = [
  renderLockFile({ apps: {} }),
  renderLockFile({ apps: { app: entry('1.0.0') } }),
  renderLockFile({
    apps: {
      'my-app.x': entry('1.0', {
        sha256: '1'.repeat(64),
        signing_key: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01',
      }),
      b: {
        source: 'script:x.sh',
        version: 'yes',
        identity: "it's: #x",
        asset: 'a-[1]{x},y',
        url: 'http://127.0.0.1:8080/x',
        sha256: '0123'.repeat(16),
        provenance_signer: 'https://github.com/o/r/.github/workflows/f.yml@refs/tags/v1',
      },
      c9: entry('true', { size: 0, tag: 'null', asset: 'a b.AppImage', identity: '"quoted"' }),
    },
  }),
];

// Declined: outside the shape `lock` writes, or YAML the library must read (or report) itself.
const DECLINED = [
  'lock_version: 1\napps:\n',
  'lock_version: 1\n',
  'apps: {}\n',
  'lock_version: 1\nlock_version: 1\napps: {}\n',
  'lock_version: 1\napps:\n  a:\n',
  'lock_version: 1\napps:\n  a:\n    size: 1\n    size: 2\n',
  'lock_version: 1\napps:\n  a:\n    size: 0x10\n',
  'lock_version: 1\napps:\n  a:\n    version: 1.5\n',
  'lock_version: 1\napps:\n  a:\n    version: 12\n',
  'lock_version: 1\napps:\n  a:\n    version: .inf\n',
  'lock_version: 1\napps:\n  a:\n    version: ~\n',
  'lock_version: 1\napps:\n  a:\n    version: True\n',
  'lock_version: 1\napps:\n  a:\n    version: "esc\\n"\n',
  'lock_version: 1\napps:\n  a:\n    version: a # comment\n',
  'lock_version: 1\napps:\n  a:\n    version: &x a\n    tag: *x\n',
  'lock_version: 1\napps:\n  a:\n    version: [a]\n',
  'lock_version: 1\napps:\n  a:\n    version: |\n      block\n',
  'lock_version: 1\napps:\n  a:\n    unknown: a\n',
  'lock_version: 1\napps:\n  "a":\n    version: a\n',
  'lock_version: 1\napps:\n  1.0:\n    version: a\n',
  'lock_version: 1\napps:\n  a:\n    version: a\r\n',
  '\ufefflock_version: 1\napps: {}\n',
  '---\nlock_version: 1\napps: {}\n',
  'lock_version: 1\napps:\n\ta:\n    version: a\n',
  'lock_version: 1\napps:\n   a:\n     version: a\n',
  'lock_version: 1\napps: {}\n  a:\n    version: a\n',
  'lock_version: 2\napps: {}\n',
  'lock_version: 1\napps:\n  a:\n    asset: -a\n',
];

const assertAgrees = (text: string): boolean => assertReaderAgrees(readLockText, text);

// Pieces a mutation splices in: the characters and words that change how YAML reads a line.
const PIECES = [
  ' ',
  '  ',
  ':',
  ': ',
  '#',
  ' #',
  '"',
  "'",
  "''",
  '\\',
  '-',
  '.',
  '0',
  '1',
  '1.5',
  '0x1',
  '0o7',
  '~',
  'null',
  'true',
  'False',
  '.nan',
  '+',
  'e5',
  '{}',
  '[',
  ']',
  ',',
  '&a',
  '*a',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '\n',
  '\n  ',
  '\n    ',
  '\n      x: y',
  'é',
  '\t',
  '\r',
  'size',
  'apps',
  'lock_version',
];

void describe('lock file reader', () => {
  void test('reads what `lock` writes exactly as the yaml library does', async () => {
    for (const text of await Promise.all(SEEDS)) assert.ok(assertAgrees(text), `declined: ${text}`);
  });

  void test('declines what is outside that shape, so the library reads or reports it', () => {
    for (const text of DECLINED) assert.equal(readLockText(text), undefined, JSON.stringify(text));
  });

  void test('agrees with the library on every mutation it accepts', async () => {
    const seeds = await Promise.all(SEEDS);
    const rand = seededRandom(22);
    let accepted = 0;
    for (let i = 0; i < 6000; i++) {
      const seed = seeds[i % seeds.length] ?? '';
      let text = seed;
      for (let m = 1 + Math.floor(rand() * 2); m > 0; m--) {
        const at = Math.floor(rand() * text.length);
        const cut = rand() < 0.4 ? Math.floor(rand() * 4) : 0;
        const piece = rand() < 0.8 ? (PIECES[Math.floor(rand() * PIECES.length)] ?? '') : '';
        text = text.slice(0, at) + piece + text.slice(at + cut);
      }
      if (assertAgrees(text)) accepted++;
    }
    // The mutations must exercise both answers, or this test checks nothing.
    assert.ok(accepted > 300, `only ${accepted} mutations accepted`);
  });
});
