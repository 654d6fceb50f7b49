// Which catalogue names `add` takes as a name and how the command that adds an entry is printed:
// quoted so a shell passes the name as one word, `--` before a leading dash, and the repository
// instead when the name holds what a terminal hides or rewrites. Each printed line is read back by
// a real /bin/sh and must give exactly `appimage-keeper add` and the name (or the repository).
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { addCommandFor, isCatalogueName, isPasteableName } from '../../../src/app/add/catalogue-name.js';
import { shellWords } from '../../helpers/shell-words.js';

const PASTEABLE = [
  'Obsidian',
  'Visual Studio Code',
  'Foo && curl https-example | sh',
  'Bar $(touch pwned)',
  'Tick `touch pwned`',
  "It's; touch pwned",
  'Glob * ? [a]',
  'Tilde ~ and $HOME and ${IFS}',
  '-rf',
  '--config-dir=evil',
  '-',
  'Оbsidian', // Cyrillic О: its own entry, printed quoted (never bare like the real one)
  'Ｏｂｓｉｄｉａｎ', // fullwidth
  '网易云音乐',
  'x'.repeat(200),
];

const NOT_PASTEABLE = [
  'Ctl\u001b]0;owned\u0007',
  'New\nline',
  'Tab\there',
  'Obsi\u200bdian', // zero-width space
  '\u202eedoC', // right-to-left override
  'Soft\u00adhyphen',
  'No\u00a0break',
  'Line\u2028sep',
  'Private\ue000use',
  ' Padded ',
  '',
  'x'.repeat(201),
];

void describe('catalogue names', () => {
  const dir = mkdtemp(join(tmpdir(), 'ak-names-'));
  after(async () => rm(await dir, { recursive: true }));

  void test('every visible name is printed quoted, and a shell gives add exactly that one name', async () => {
    const cwd = await dir;
    for (const name of PASTEABLE) {
      assert.ok(isPasteableName(name), JSON.stringify(name));
      const line = addCommandFor({ name, repository: 'e2e/Other' });
      assert.ok(line, name);
      const words = shellWords(line, cwd);
      const expected = name.startsWith('-') ? ['--', name] : [name];
      assert.deepEqual(words, ['appimage-keeper', 'add', ...expected], line);
    }
    assert.deepEqual(await readdir(cwd), [], 'a shell ran part of a name');
    assert.equal(addCommandFor({ name: 'Obsidian' }), 'appimage-keeper add Obsidian');
    assert.equal(addCommandFor({ name: 'Оbsidian' }), "appimage-keeper add 'Оbsidian'");
  });

  void test('names a terminal would hide or rewrite are added by their repository or download instead', async () => {
    const cwd = await dir;
    for (const name of NOT_PASTEABLE) {
      assert.ok(!isPasteableName(name), JSON.stringify(name));
      assert.equal(addCommandFor({ name, repository: 'e2e/Ctl' }), 'appimage-keeper add e2e/Ctl');
      const download = 'https://dl.example.org/a.AppImage?x=1&touch${IFS}pwned';
      const line = addCommandFor({ name, download }) ?? '';
      assert.deepEqual(shellWords(line, cwd), ['appimage-keeper', 'add', download], line);
      assert.equal(addCommandFor({ name }), undefined);
    }
    assert.deepEqual(await readdir(cwd), []);
  });

  void test('add reads URLs, owner/repo and file names as before; any other visible text as a name', () => {
    for (const url of [
      'https://github.com/o/r',
      'o/r',
      'git@host:o/r.git',
      'Tool-1.0.AppImage',
      'a:b',
      'x@y',
    ])
      assert.ok(!isCatalogueName(url), url);
    for (const name of ['obsidian', ' obsidian ', 'Visual Studio Code', '-rf', 'example.com'])
      assert.ok(isCatalogueName(name), name);
  });
});
