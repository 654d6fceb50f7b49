import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseAsset, matchingAssets } from '../../../src/sources/forge/asset-match.js';
import { KeeperError } from '../../../src/core/errors.js';

const named = (...names: string[]): { name: string }[] => names.map((name) => ({ name }));

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof KeeperError);
    return err.code;
  }
  return undefined;
}

void describe('asset choice', () => {
  void test('no pattern (as fp recipes may have): AppImages in any case, by architecture, companions out', () => {
    const assets = named(
      'checksums.txt',
      'app_1.0_amd64.deb',
      'App-1.0-x86_64.appimage',
      'App-1.0-x86_64.appimage.zsync',
      'App-1.0-aarch64.AppImage',
    );
    assert.equal(chooseAsset(assets, { nodeArch: 'x64' }).name, 'App-1.0-x86_64.appimage');
    assert.equal(chooseAsset(assets, { nodeArch: 'arm64' }).name, 'App-1.0-aarch64.AppImage');
    assert.equal(
      codeOf(() => chooseAsset(named('a.deb', 'b.tar.gz'), { nodeArch: 'x64' })),
      'ASSET_NO_MATCH',
    );
    assert.equal(
      codeOf(() => chooseAsset(named('One.AppImage', 'Two.AppImage'), { nodeArch: 'x64' })),
      'ASSET_AMBIGUOUS',
    );
  });

  void test('glob picks the single matching asset', () => {
    const assets = named('App-1.0.tar.gz', 'App-1.0.AppImage');
    assert.equal(chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'x64' }).name, 'App-1.0.AppImage');
  });

  void test('globs are case-sensitive', () => {
    assert.equal(matchingAssets(named('app.appimage'), { glob: '*.AppImage', nodeArch: 'x64' }).length, 0);
  });

  void test('regex alone selects', () => {
    const assets = named('tool-linux.AppImage', 'tool-linux-legacy.AppImage');
    const chosen = chooseAsset(assets, { regex: '^tool-linux\\.AppImage$', nodeArch: 'x64' });
    assert.equal(chosen.name, 'tool-linux.AppImage');
  });

  void test('glob and regex together: the asset must match both', () => {
    const assets = named(
      'Tool-2.0-x86_64.AppImage',
      'Tool-2.0-x86_64-wayland.AppImage',
      'Other-2.0-x86_64.AppImage',
    );
    const regex = '[A-Za-z]+-[0-9.]+-x86_64\\.AppImage';
    const chosen = chooseAsset(assets, { glob: 'Tool-*.AppImage', regex, nodeArch: 'x64' });
    assert.equal(chosen.name, 'Tool-2.0-x86_64.AppImage');
    // The regex alone would also accept Other-..., the glob alone the wayland build.
    assert.equal(matchingAssets(assets, { regex, nodeArch: 'x64' }).length, 2);
    assert.equal(matchingAssets(assets, { glob: 'Tool-*.AppImage', nodeArch: 'x64' }).length, 2);
  });

  void test('companions are skipped unless the pattern names them', () => {
    const assets = named(
      'App.AppImage',
      'App.AppImage.zsync',
      'App.AppImage.sig',
      'App.AppImage.asc',
      'App.AppImage.sha256',
      'SHA256SUMS',
      'App.AppImage.blockmap',
      'App-debug.AppImage',
    );
    assert.deepEqual(
      matchingAssets(assets, { glob: 'App*', nodeArch: 'x64' }).map((a) => a.name),
      ['App.AppImage'],
    );
    assert.equal(chooseAsset(assets, { glob: '*.zsync', nodeArch: 'x64' }).name, 'App.AppImage.zsync');
    assert.equal(
      chooseAsset(assets, { glob: '*-debug.AppImage', nodeArch: 'x64' }).name,
      'App-debug.AppImage',
    );
  });

  void test("several matches: this machine's architecture wins and other arches are dropped", () => {
    const assets = named('App-1.0-aarch64.AppImage', 'App-1.0-x86_64.AppImage', 'App-1.0-armhf.AppImage');
    assert.equal(
      chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'x64' }).name,
      'App-1.0-x86_64.AppImage',
    );
    assert.equal(
      chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'arm64' }).name,
      'App-1.0-aarch64.AppImage',
    );
    assert.equal(chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'arm' }).name, 'App-1.0-armhf.AppImage');
  });

  void test('arch aliases: amd64 and arm64 spellings', () => {
    const assets = named('app_amd64.AppImage', 'app_arm64.AppImage');
    assert.equal(chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'x64' }).name, 'app_amd64.AppImage');
    assert.equal(chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'arm64' }).name, 'app_arm64.AppImage');
  });

  void test('an arch-less name is kept when the other candidates are for other machines', () => {
    const assets = named('App.AppImage', 'App-arm64.AppImage');
    assert.equal(chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'x64' }).name, 'App.AppImage');
  });

  void test('still ambiguous: ASSET_AMBIGUOUS lists the candidates', () => {
    const assets = named('App-x86_64.AppImage', 'App-lite-x86_64.AppImage', 'App-aarch64.AppImage');
    try {
      chooseAsset(assets, { glob: '*.AppImage', nodeArch: 'x64' });
      assert.fail('expected ASSET_AMBIGUOUS');
    } catch (err) {
      assert.ok(err instanceof KeeperError);
      assert.equal(err.code, 'ASSET_AMBIGUOUS');
      assert.match(err.message, /App-x86_64\.AppImage/);
      assert.match(err.message, /App-lite-x86_64\.AppImage/);
      assert.doesNotMatch(err.message, /aarch64/);
    }
  });

  void test('no match: ASSET_NO_MATCH lists the available assets', () => {
    try {
      chooseAsset(named('app.tar.gz', 'app.deb'), { glob: '*.AppImage', nodeArch: 'x64' });
      assert.fail('expected ASSET_NO_MATCH');
    } catch (err) {
      assert.ok(err instanceof KeeperError);
      assert.equal(err.code, 'ASSET_NO_MATCH');
      assert.match(err.hint ?? '', /app\.tar\.gz, app\.deb/);
    }
  });

  void test('several matches all for other machines: ASSET_NO_MATCH naming the architecture', () => {
    const code = codeOf(() =>
      chooseAsset(named('a-aarch64.AppImage', 'a-armhf.AppImage'), { glob: '*.AppImage', nodeArch: 'x64' }),
    );
    assert.equal(code, 'ASSET_NO_MATCH');
  });

  void test('an invalid regex is a clear error', () => {
    assert.equal(
      codeOf(() => chooseAsset(named('a'), { regex: '(', nodeArch: 'x64' })),
      'ASSET_PATTERN_INVALID',
    );
  });

  void test('the regex is a full match of the name, as ^(?:re)$', () => {
    const assets = named('tool-linux.AppImage', 'tool-linux.AppImage.zsync', 'mytool-linux.AppImage');
    const names = matchingAssets(assets, { regex: 'tool-linux\\.AppImage', nodeArch: 'x64' });
    assert.deepEqual(
      names.map((a) => a.name),
      ['tool-linux.AppImage'],
    );
    // An alternation is wrapped as a whole, not only its first branch anchored.
    const alt = matchingAssets(named('a.AppImage', 'xb.AppImage', 'b.AppImage'), {
      regex: 'a|b\\.AppImage',
      nodeArch: 'x64',
    });
    assert.deepEqual(
      alt.map((a) => a.name),
      ['b.AppImage'],
    );
  });

  void test('Rust inline flags such as (?i) apply', () => {
    const got = matchingAssets(named('Tool-1.0-X86_64.APPIMAGE'), {
      regex: '(?i)tool-[0-9.]+-x86_64\\.appimage',
      nodeArch: 'x64',
    });
    assert.equal(got.length, 1);
  });

  void test('POSIX classes inside brackets match as in Rust', () => {
    const assets = named('tool-12.AppImage', 'tool-1a.AppImage', 'tool-.AppImage');
    const got = matchingAssets(assets, { regex: 'tool-[[:digit:]]+\\.AppImage', nodeArch: 'x64' });
    assert.deepEqual(
      got.map((a) => a.name),
      ['tool-12.AppImage'],
    );
    const alnum = matchingAssets(assets, { regex: 'tool-[[:alnum:]]+\\.AppImage', nodeArch: 'x64' });
    assert.equal(alnum.length, 2);
  });

  void test("catastrophic patterns run in linear time (RE2): the audit's inputs return", () => {
    // With backtracking, each of these took tens of seconds on a 40-character name.
    const hostile = named(`${'a'.repeat(5000)}b`);
    for (const regex of ['(a|a)*', '(a|aa)+', '(a+)+', '(.*a){20}'])
      assert.equal(matchingAssets(hostile, { regex, nodeArch: 'x64' }).length, 0, regex);
  });
});
