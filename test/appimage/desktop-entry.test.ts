import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeString,
  getExec,
  getGroup,
  getString,
  joinExec,
  parseDesktopEntry,
  removeKey,
  serializeDesktopEntry,
  setExec,
  setString,
  tokenizeExec,
  unescapeString,
} from '../../src/appimage/desktop-entry.js';
import { chooseDesktopFile } from '../../src/appimage/desktop-choice.js';

const SAMPLE = `# leading comment

[Desktop Entry]
Type=Application
Name=Editor
Name[de]=Bearbeiter
Name[sr@latin]=Urednik
  Comment = spaced   
# inside comment
Exec="/opt/my app/bin/editor" --flag %F
Icon=editor
Actions=new;

[Desktop Action new]
Name=New
Exec=editor --new

[X-Vendor Group]
Foo=bar
`;

void describe('desktop entry parsing and writing', () => {
  void test('round-trips a file byte for byte', () => {
    assert.equal(serializeDesktopEntry(parseDesktopEntry(SAMPLE)), SAMPLE);
  });

  void test('reads localized keys, trims around "=", and keeps group order', () => {
    const e = parseDesktopEntry(SAMPLE);
    assert.deepEqual(
      e.groups.map((g) => g.name),
      ['Desktop Entry', 'Desktop Action new', 'X-Vendor Group'],
    );
    assert.equal(getString(e, 'Desktop Entry', 'Name', 'de'), 'Bearbeiter');
    assert.equal(getString(e, 'Desktop Entry', 'Name', 'sr@latin'), 'Urednik');
    assert.equal(getString(e, 'Desktop Entry', 'Comment'), 'spaced   ');
    assert.equal(getString(e, 'Desktop Entry', 'Missing'), undefined);
  });

  void test('edits in place: a changed key keeps its position, a new key lands after the last entry', () => {
    const e = parseDesktopEntry(SAMPLE);
    const main = getGroup(e, 'Desktop Entry');
    assert.ok(main);
    setString(main, 'Icon', 'other');
    setString(main, 'X-New', 'v');
    removeKey(main, 'Name', { onlyLocales: true });
    const out = serializeDesktopEntry(e);
    assert.match(out, /Exec=.*\nIcon=other\nActions=new;\nX-New=v\n\n\[Desktop Action new\]/);
    assert.doesNotMatch(out, /Name\[/);
    assert.match(out, /^# leading comment\n\n\[Desktop Entry\]/);
    assert.match(out, /# inside comment/);
  });

  void test('refuses files without a main group or with duplicate groups, and reports junk lines', () => {
    assert.throws(() => parseDesktopEntry('[Other]\nA=b\n'), { code: 'DESKTOP_ENTRY_INVALID' });
    assert.throws(() => parseDesktopEntry('[Desktop Entry]\nA=b\n[Desktop Entry]\n'), {
      code: 'DESKTOP_ENTRY_INVALID',
    });
    const e = parseDesktopEntry('\uFEFF[Desktop Entry]\r\nName=x\r\nthis is junk\r\n');
    assert.equal(e.issues.length, 1);
    assert.equal(serializeDesktopEntry(e), '[Desktop Entry]\nName=x\n');
  });

  void test('string escapes', () => {
    assert.equal(unescapeString('a\\sb\\nc\\td\\\\e\\;'), 'a b\nc\td\\e\\;');
    assert.equal(escapeString(' lead\\and\nnewline'), '\\slead\\\\and\\nnewline');
    assert.equal(unescapeString(escapeString(' x\\y\tz\r')), ' x\\y\tz\r');
  });
});

void describe('Exec tokenizing and quoting', () => {
  void test('splits on spaces, honours double quotes and their escapes, keeps field codes', () => {
    assert.deepEqual(tokenizeExec('app --flag %U'), ['app', '--flag', '%U']);
    assert.deepEqual(tokenizeExec('"/opt/my app/run" "a \\"q\\" \\$HOME \\`x\\` \\\\" %f'), [
      '/opt/my app/run',
      'a "q" $HOME `x` \\',
      '%f',
    ]);
    assert.deepEqual(tokenizeExec('  a   b  '), ['a', 'b']);
    assert.deepEqual(tokenizeExec('a ""'), ['a', '']);
    assert.deepEqual(tokenizeExec('app --percent=100%%'), ['app', '--percent=100%%']);
    assert.throws(() => tokenizeExec('app "unterminated'), { code: 'DESKTOP_EXEC_INVALID' });
  });

  void test('quotes only what needs quoting and round-trips through the file escaping', () => {
    const args = ['/home/u/My Apps/app.AppImage', '--name=a"b', 'plain', '%U', 'x$y', 'back\\slash', ''];
    const joined = joinExec(args);
    assert.equal(joined, '"/home/u/My Apps/app.AppImage" "--name=a\\"b" plain %U "x\\$y" "back\\\\slash" ""');
    assert.deepEqual(tokenizeExec(joined), args);
    const e = parseDesktopEntry('[Desktop Entry]\nExec=old\n');
    const main = getGroup(e, 'Desktop Entry');
    assert.ok(main);
    setExec(main, args);
    // The string escape doubles backslashes once more: a literal backslash is four in the file.
    assert.match(serializeDesktopEntry(e), /"back\\\\\\\\slash"/);
    assert.deepEqual(getExec(getGroup(parseDesktopEntry(serializeDesktopEntry(e)), 'Desktop Entry')), args);
  });
});

void describe('choosing the desktop file', () => {
  const entries = (names: string[]) => names.map((name) => ({ name, type: 'file' as const }));
  void test('prefers the app name, then the AppImage name, else the alphabetically first', () => {
    const root = entries(['zeta.desktop', 'org.example.Beta.desktop', 'alpha.desktop', 'AppRun', 'x.png']);
    assert.equal(
      chooseDesktopFile(root, ['org.example.beta', '/x/zeta-1.0.AppImage']),
      'org.example.Beta.desktop',
    );
    assert.equal(chooseDesktopFile(root, ['unrelated', '/x/zeta-1.0-x86_64.AppImage']), 'zeta.desktop');
    assert.equal(chooseDesktopFile(root, ['unrelated', '/x/other.AppImage']), 'alpha.desktop');
    assert.equal(chooseDesktopFile(entries(['AppRun']), ['x']), undefined);
    assert.equal(
      chooseDesktopFile([{ name: 'dir.desktop', type: 'dir' }, ...entries(['b.desktop'])], ['dir']),
      'b.desktop',
    );
  });
});
