import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { namingFormatProblems } from '../../src/config/naming-format.js';
import { APP_NAME_RE } from '../../src/config/recipe-checks.js';
import { isReservedFileName, RESERVED_FILE_PREFIX } from '../../src/core/file-names.js';
import { PREVIOUS_DIR } from '../../src/install/place.js';
import { renderFileName, tempPrefix } from '../../src/install/naming.js';

void describe('the reserved file-name prefix', () => {
  void test('our own temp files and kept versions use it (cleanup relies on it)', () => {
    assert.ok(isReservedFileName(tempPrefix('firefox')), tempPrefix('firefox'));
    assert.ok(isReservedFileName(PREVIOUS_DIR), PREVIOUS_DIR);
  });

  void test('no accepted format renders a reserved name, whatever the name and version', () => {
    const formats = [
      '{name}.AppImage',
      '{name}-{version}.AppImage',
      '.{name}',
      'x.{name}',
      '.{version}-{name}',
    ];
    const names = ['a', 'appimage-keeper-x', 'appimage-keeper'];
    const versions = ['1.0', 'appimage-keeper-1', '.appimage-keeper'];
    for (const format of formats) {
      const accepted = namingFormatProblems(format).length === 0;
      for (const name of names) {
        assert.ok(APP_NAME_RE.test(name), name);
        for (const version of versions) {
          const file = renderFileName(format, name, version);
          if (accepted) assert.ok(!isReservedFileName(file), `${format} -> ${file}`);
        }
      }
    }
    // The formats that can produce one are refused.
    assert.ok(namingFormatProblems('.{name}').length > 0);
    assert.ok(namingFormatProblems('.{version}-{name}').length > 0);
    assert.equal(namingFormatProblems('x.{name}').length, 0);
  });

  void test('app names cannot start with the prefix', () => {
    assert.ok(!APP_NAME_RE.test(`${RESERVED_FILE_PREFIX}-x`));
    assert.ok(!APP_NAME_RE.test('a'.repeat(101)));
  });
});
