/**
 * The lock file is hostile input (it comes from a repository someone pulled): bounded, a regular
 * file, strict schema, problems at file:line:col; and its rendering is stable, sorted and round-trips.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_LOCK_BYTES, readLockFile, renderLockFile, type LockEntry } from '../../src/config/lock-file.js';
import { ConfigError } from '../../src/core/errors.js';

const entry = (version: string): LockEntry => ({
  source: 'https://github.com/o/r',
  version,
  tag: version,
  identity: `${version}|r-${version}.AppImage|sha256:${'1'.repeat(64)}`,
  asset: `r-${version}.AppImage`,
  url: `https://github.com/o/r/releases/download/${version}/r-${version}.AppImage`,
  size: 1234,
  sha256: '1'.repeat(64),
});

void describe('lock file', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ak-lockfile-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = async (name: string, text: string | Buffer): Promise<string> => {
    const file = join(dir, name);
    await writeFile(file, text);
    return file;
  };

  const refused = async (file: string, pattern: RegExp): Promise<void> => {
    await assert.rejects(readLockFile(file), (err: unknown) => {
      assert.ok(err instanceof ConfigError, String(err));
      assert.match(err.message, pattern);
      return true;
    });
  };

  void test('renders sorted, in a fixed key order, and reads back the same', async () => {
    // Keys deliberately out of order: the file must not depend on how the object was built.
    const { sha256: _unused, ...rest } = entry('2.0');
    const zeta = { sha256: '2'.repeat(64), ...rest };
    const text = await renderLockFile({ apps: { zeta, alpha: entry('1.10') } });
    assert.ok(text.indexOf('alpha:') < text.indexOf('zeta:'));
    assert.match(text, /version: "1\.10"/, 'a version that looks like a number stays a string');
    assert.match(
      text,
      /source: .*\n {4}version: .*\n {4}tag: .*\n {4}identity: .*\n {4}asset: .*\n {4}url: .*\n {4}size: 1234\n {4}sha256: /,
    );
    assert.equal(await renderLockFile({ apps: { alpha: entry('1.10'), zeta } }), text);
    const file = await write('round.lock', text);
    const back = await readLockFile(file);
    assert.deepEqual(back?.apps.alpha, entry('1.10'));
    assert.equal(await renderLockFile(back ?? { apps: {} }), text);
  });

  void test('a missing file is no lock; a folder, a FIFO-like path or an oversized file is refused', async () => {
    assert.equal(await readLockFile(join(dir, 'absent.lock')), undefined);
    const folder = join(dir, 'folder.lock');
    await mkdir(folder);
    await refused(folder, /not a regular file/);
    const big = await write('big.lock', Buffer.alloc(MAX_LOCK_BYTES + 1, 0x20));
    await refused(big, /larger than 4 MiB/);
    // A link is read as its target is; only a regular file passes.
    const link = join(dir, 'link.lock');
    await symlink('/dev/zero', link);
    await refused(link, /not a regular file/);
  });

  void test('schema problems are positioned at file:line:col', async () => {
    const good = await renderLockFile({ apps: { alpha: entry('1.0') } });
    const cases: [string, RegExp][] = [
      [
        good.replace(/sha256: "?1+"?/, 'sha256: XYZ'),
        /bad-0\.lock:\d+:\d+: apps\.alpha\.sha256: must be 64 lower-case hex digits/,
      ],
      [
        good.replace(/url: \S+/, 'url: "https://user:pw@example.org/a"'),
        /apps\.alpha\.url: must be an http\(s\) URL without credentials/,
      ],
      [good.replace('lock_version: 1', 'lock_version: 2'), /lock_version/],
      [good.replace('    size: 1234', '    size: 1234\n    extra: 1'), /Unrecognized key|extra/],
      [good.replace('alpha:', '"../../etc":'), /apps\.\.\.\/\.\.\/etc: (is not an app name|Invalid key)/],
      [good.replace('  alpha:', '  alpha: 1\n  alpha:'), /\.lock:\d+:\d+: .*(unique|duplicate|Map keys)/i],
      [good.replace('    size: 1234', '    size: -1'), /apps\.alpha\.size/],
      ['- just\n- a list\n', /bad-7\.lock:1:1/],
    ];
    for (const [i, [text, pattern]] of cases.entries()) {
      await refused(await write(`bad-${i}.lock`, text), pattern);
    }
  });
});
