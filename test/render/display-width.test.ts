import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { displayWidth, shortenMiddle, truncateEnd } from '../../src/render/display-width.js';
import { fitTable } from '../../src/render/fit-table.js';
import { tildePath } from '../../src/render/terminal-text.js';

void describe('display width', () => {
  void test('counts terminal cells: wide characters two, combining marks none, colours nothing', () => {
    assert.equal(displayWidth('abc'), 3);
    assert.equal(displayWidth('日本語'), 6);
    assert.equal(displayWidth('e\u0301'), 1);
    assert.equal(displayWidth('\x1b[31mred\x1b[39m'), 3);
    assert.equal(displayWidth('🚀x'), 3);
    // What termText makes of a control character is plain ASCII, counted as shown.
    assert.equal(displayWidth('\\x1b'), 4);
  });

  void test('truncateEnd keeps the start and ends with …, never wider than asked', () => {
    assert.equal(truncateEnd('short', 10), 'short');
    assert.equal(truncateEnd('abcdefghij', 5), 'abcd…');
    assert.equal(truncateEnd('日本語アプリ', 6), '日本…');
    assert.equal(displayWidth(truncateEnd('日本語アプリ', 6)), 5);
  });

  void test('shortenMiddle keeps start and end and puts … in the middle', () => {
    const path = '~/Applications/a-long-storage-directory/nested/Obsidian-1.7.7.AppImage';
    assert.equal(shortenMiddle(path, 200), path);
    for (const cells of [3, 10, 24, 33, 40, path.length - 1]) {
      const short = shortenMiddle(path, cells);
      assert.equal(displayWidth(short), cells, short);
      const [head, tail] = short.split('…');
      assert.ok(head !== undefined && tail !== undefined && tail.length > 0, short);
      assert.ok(path.startsWith(head) && path.endsWith(tail), short);
    }
    // The file name is kept whole when that leaves room for the start.
    assert.equal(shortenMiddle(path, 33), '~/Applic…/Obsidian-1.7.7.AppImage');
    assert.equal(shortenMiddle('abcdefghijklmnopqrstuvwxyz', 11), 'abcd…uvwxyz');
    // Wide characters are never split in half.
    assert.ok(displayWidth(shortenMiddle('/x/日本語アプリ日本語アプリ.AppImage', 15)) <= 15);
  });

  void test('tildePath shows the home directory as ~, and nothing else', () => {
    assert.equal(tildePath('/home/ann/Apps/x.AppImage', '/home/ann'), '~/Apps/x.AppImage');
    assert.equal(tildePath('/home/ann', '/home/ann/'), '~');
    assert.equal(tildePath('/home/anna/x', '/home/ann'), '/home/anna/x');
    assert.equal(tildePath('/opt/x', '/home/ann'), '/opt/x');
    assert.equal(tildePath('/opt/x', '/'), '/opt/x');
  });
});

void describe('fitTable', () => {
  const rows = [
    ['NAME', 'WHEN', 'NOTE', 'FILE'],
    ['alpha-with-a-long-name', '2026-01-01', 'fine', '/a/very/long/directory/path/alpha-1.0.AppImage'],
    ['b', '2026-01-02', 'fine', '/b.AppImage'],
  ];
  const fits = [
    { shorten: 'end' as const, min: 8 },
    { hideRank: 1 },
    {},
    { shorten: 'middle' as const, min: 20 },
  ];
  // As `table` lays a row out: cells padded to their column, two spaces between.
  const lineWidth = (table: string[][]): number =>
    (table[0] ?? []).reduce((n, _, i) => n + Math.max(...table.map((r) => displayWidth(r[i] ?? ''))), 0) +
    2 * ((table[0]?.length ?? 1) - 1);
  const natural = lineWidth(rows);

  void test('a table that fits is left alone', () => {
    assert.equal(natural, 22 + 10 + 4 + 46 + 6);
    assert.deepEqual(fitTable(rows, fits, natural), { rows, hidden: 0 });
  });

  void test('the widest shrinking column gives way first, never below its min', () => {
    const fitted = fitTable(rows, fits, natural - 10);
    assert.equal(fitted.hidden, 0);
    assert.equal(fitted.rows[1]?.[0], 'alpha-with-a-long-name');
    assert.match(fitted.rows[1]?.[3] ?? '', /^\/a\/.*….*alpha-1\.0\.AppImage$/);
    assert.equal(lineWidth(fitted.rows), natural - 10);
    // Past FILE's share, NAME (now the widest) is cut at its end.
    const tighter = fitTable(rows, fits, natural - 35);
    assert.equal(lineWidth(tighter.rows), natural - 35);
    assert.match(tighter.rows[1]?.[0] ?? '', /^alpha-.*…$/);
  });

  void test('when the mins do not fit, columns are hidden by rank; then cut on past min', () => {
    const fitted = fitTable(rows, fits, 40);
    assert.equal(fitted.hidden, 1);
    assert.deepEqual(fitted.rows[0], ['NAME', 'NOTE', 'FILE']);
    assert.ok(lineWidth(fitted.rows) <= 40);
    const tiny = fitTable(rows, fits, 20);
    assert.equal(tiny.hidden, 1);
    assert.ok(lineWidth(tiny.rows) <= 20, JSON.stringify(tiny.rows));
  });
});
