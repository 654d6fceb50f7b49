// What makes a catalogue match confident beyond the name: the release's asset pattern selects the
// file's own name (as it was before a manager renamed it), or the file's AppStream id names the repository.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AdoptInspection } from '../../src/app/adopt/inspect.js';
import { idNamesRepository, matchFit } from '../../src/app/adopt/match-fit.js';
import type { FoundSource } from '../../src/app/adopt/source-finders.js';

function inspection(file: string, id?: string): AdoptInspection {
  return {
    file: `/home/me/Applications/${file}`,
    arch: 'x86_64',
    appImageType: 2,
    updateInfo: { transport: 'none' },
    signed: false,
    appStream: id === undefined ? {} : { id },
    warnings: [],
  };
}

const forge = (fields: Record<string, string>): FoundSource => ({
  strategy: { strategy: 'forge', repository: 'https://github.com/o/r', ...fields },
  source: '',
});

void describe('catalogue match fit', () => {
  void test('the asset pattern selects the file name, AppImageLauncher’s decoration removed; Gear Lever’s name says nothing', () => {
    const found = forge({ asset_match: 'Zettlr-*-x86_64.AppImage' });
    assert.equal(
      matchFit(inspection('Zettlr-3.4.1-x86_64.AppImage'), found, 'o/r', 'x64'),
      'its asset pattern Zettlr-*-x86_64.AppImage selects Zettlr-3.4.1-x86_64.AppImage',
    );
    const launcher = `Zettlr-3.4.1-x86_64_${'0123456789abcdef'.repeat(2)}.AppImage`;
    assert.match(
      matchFit(inspection(launcher), found, 'o/r', 'x64') ?? '',
      /selects Zettlr-3\.4\.1-x86_64\.AppImage$/,
    );
    assert.equal(matchFit(inspection('gearlever_zettlr_0a1b2c.appimage'), found, 'o/r', 'x64'), undefined);
    const regex = forge({ asset_match_regex: 'Zettlr-\\d+(?:\\.\\d+)*-x86_64\\.AppImage' });
    assert.match(
      matchFit(inspection('Zettlr-3.4.1-x86_64.AppImage'), regex, 'o/r', 'x64') ?? '',
      /^its asset pattern \//,
    );
  });

  void test('an unrelated release fits nothing: another app, a companion file, an empty pattern', () => {
    const file = inspection('Zettlr-3.4.1-x86_64.AppImage');
    assert.equal(matchFit(file, forge({ asset_match: 'Unrelated-*.AppImage' }), 'o/r', 'x64'), undefined);
    assert.equal(matchFit(file, forge({}), 'o/r', 'x64'), undefined);
    assert.equal(
      matchFit(inspection('Tool-1.0.AppImage.zsync'), forge({ asset_match: 'Tool-*' }), 'o/r', 'x64'),
      undefined,
    );
  });

  void test('a download fits when it has the file’s name', () => {
    const direct: FoundSource = {
      strategy: { strategy: 'direct', url: 'https://dl.example.org/latest/Portal%20App.AppImage' },
      source: '',
    };
    assert.equal(
      matchFit(
        inspection('Portal App.AppImage'),
        direct,
        'https://dl.example.org/latest/Portal%20App.AppImage',
        'x64',
      ),
      'its download is named Portal App.AppImage',
    );
    assert.equal(matchFit(inspection('Other.AppImage'), direct, 'x', 'x64'), undefined);
  });

  void test('the AppStream id names the repository by its forge’s reverse-DNS form, on that forge only', () => {
    const found = forge({ asset_match: 'Unrelated-*.AppImage' });
    assert.equal(
      matchFit(
        inspection('gearlever_marker_0a1b2c.appimage', 'io.github.e2e.Marker'),
        found,
        'e2e/Marker',
        'x64',
      ),
      'the AppStream id io.github.e2e.Marker names e2e/Marker',
    );
    assert.ok(idNamesRepository('com.github.tchx84.Flatseal', 'tchx84/flatseal'));
    assert.ok(idNamesRepository('io.github.my_org.my_app.desktop', 'https://github.com/my-org/my-app'));
    assert.ok(idNamesRepository('io.gitlab.group.tool', 'https://gitlab.com/group/tool'));
    assert.ok(idNamesRepository('org.codeberg.me.app', 'https://codeberg.org/me/app.git'));
    for (const [id, source] of [
      ['io.github.e2e.Marker', 'https://gitlab.com/e2e/Marker'],
      ['io.github.e2e.Marker', 'https://git.example.org/e2e/Marker'],
      ['io.github.e2e.Marker', 'e2e/Other'],
      ['io.github.e2e.Marker.Extra', 'e2e/Marker'],
      ['org.example.Marker', 'e2e/Marker'],
      ['io.github.e2e.Marker', 'https://github.com/group/e2e/Marker'],
      ['io.github.e2e.Marker', 'not a url://x'],
    ] as const)
      assert.equal(idNamesRepository(id, source), false, `${id} ~ ${source}`);
  });
});
