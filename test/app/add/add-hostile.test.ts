// Hostile input to `add`'s new readers: pasted text that is not a repository, electron-builder
// metadata built to expand or mislead, and asset names with glob and regex syntax in them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nameFromAsset } from '../../../src/app/add/app-name.js';
import { patternFor } from '../../../src/app/add/asset-pattern.js';
import { readCopiedUrl } from '../../../src/app/add/copied-url.js';
import { sha512FromLatestYml } from '../../../src/app/electron-yml.js';
import { compileGlob } from '../../../src/config/recipe-glob.js';

const HUB = 'https://github.com';

void describe('add: hostile input', () => {
  void test('pasted text: owner/repo, scp-like and download URLs are read; anything else is ADD_URL_INVALID', () => {
    assert.deepEqual(readCopiedUrl('o/r.git', HUB), { url: `${HUB}/o/r` });
    assert.deepEqual(readCopiedUrl('git@gitlab.com:g/sub/p.git', HUB), { url: 'https://gitlab.com/g/sub/p' });
    assert.deepEqual(readCopiedUrl(`${HUB}/o/r/releases/download/v1%2F2/A%20B.AppImage`, HUB), {
      url: `${HUB}/o/r`,
      download: { tag: 'v1/2', file: 'A B.AppImage' },
    });
    for (const bad of [
      'o/..',
      '../r',
      'a/b/c',
      'o/r\u001b[2J',
      `${'x'.repeat(5000)}/r`,
      'git@host:',
      '',
      'obsidian',
    ])
      assert.throws(
        () => readCopiedUrl(bad, HUB),
        { code: 'ADD_URL_INVALID' },
        JSON.stringify(bad.slice(0, 40)),
      );
  });

  void test('latest-linux.yml: aliases, a wrong digest length, non-base64, too many files and a path elsewhere give no digest', () => {
    const digest = Buffer.alloc(64, 7).toString('base64');
    const ok = `files:\n  - url: A.AppImage\n    sha512: ${digest}\n`;
    assert.equal(sha512FromLatestYml(ok, 'A.AppImage'), Buffer.alloc(64, 7).toString('hex'));
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`,
      ),
      `files: [{url: A.AppImage, sha512: ${digest}}]`,
    ].join('\n');
    const started = Date.now();
    assert.equal(sha512FromLatestYml(bomb, 'A.AppImage'), undefined);
    assert.ok(Date.now() - started < 2000, 'aliases are refused, not expanded');
    assert.equal(
      sha512FromLatestYml(
        `files:\n  - url: A.AppImage\n    sha512: ${Buffer.alloc(32).toString('base64')}\n`,
        'A.AppImage',
      ),
      undefined,
    );
    assert.equal(
      sha512FromLatestYml('files:\n  - url: A.AppImage\n    sha512: "not base64!"\n', 'A.AppImage'),
      undefined,
    );
    const many = `files:\n${'  - url: B.AppImage\n'.repeat(1001)}  - url: A.AppImage\n    sha512: ${digest}\n`;
    assert.equal(sha512FromLatestYml(many, 'A.AppImage'), undefined);
    assert.equal(sha512FromLatestYml('- just\n- a list\n', 'A.AppImage'), undefined);
    assert.equal(sha512FromLatestYml(': : :\n\t- [', 'A.AppImage'), undefined);
  });

  void test('asset names with glob and regex syntax: the pattern is escaped and still selects only its asset', () => {
    const names = ['App[x]-1.0-x86_64.AppImage', 'App*-1.0-x86_64.AppImage', 'App(?)-1.0-x86_64.AppImage'];
    const assets = names.map((name) => ({ name, url: `https://h/${name}` }));
    for (const asset of assets) {
      const p = patternFor({
        asset,
        assets,
        tag: '1.0',
        versionHints: [],
        host: 'x86_64',
        shippedArches: ['x86_64'],
      });
      assert.ok(p.assetMatch !== undefined || p.assetRegex !== undefined);
      if (p.assetMatch !== undefined) {
        const isMatch = compileGlob(p.assetMatch, { dot: true });
        assert.deepEqual(
          names.filter((n) => isMatch(n)),
          [asset.name],
          p.assetMatch,
        );
        assert.ok(isMatch(asset.name.replace('1.0', '2.0')), p.assetMatch);
      }
    }
  });

  void test('names from hostile asset names are plain slugs or nothing', () => {
    assert.equal(nameFromAsset('Obsidian-1.7.7.AppImage', 'v1.7.7'), 'obsidian');
    assert.equal(nameFromAsset('../../etc/passwd-1.0.AppImage', '1.0'), 'etc-passwd');
    assert.equal(nameFromAsset('\u001b[31mRed-1.0.AppImage', '1.0'), '31mred');
    assert.equal(nameFromAsset('1.0-x86_64.AppImage', '1.0'), undefined);
    assert.equal(nameFromAsset('WhatsApp-2.0.AppImage', '2.0'), 'whatsapp');
  });
});
