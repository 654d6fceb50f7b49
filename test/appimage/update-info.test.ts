import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseAppStreamUrls } from '../../src/appimage/appstream.js';
import { parseUpdateInfo, readUpdateInfoText } from '../../src/appimage/update-info.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../helpers/fixture-appimages.js';
import { corpusFile, skipWithoutCorpus } from '../helpers/corpus.js';
import { managerOf, nameFromFileName } from '../../src/app/adopt/file-names.js';
import { globForName } from '../../src/app/add/recipe-from-release.js';

after(disposeFixtureAppImages);

void describe('update information', () => {
  void test(
    'the real appimagetool carries gh-releases-zsync in .upd_info',
    { skip: skipWithoutCorpus() },
    async () => {
      const text = await readUpdateInfoText(corpusFile('appimages', 'appimagetool-x86_64.AppImage') ?? '', 2);
      assert.equal(
        text,
        'gh-releases-zsync|AppImage|AppImageKit|continuous|appimagetool-x86_64.AppImage.zsync',
      );
      assert.deepEqual(parseUpdateInfo(text), {
        transport: 'gh-releases-zsync',
        owner: 'AppImage',
        repo: 'AppImageKit',
        tag: 'continuous',
        pattern: 'appimagetool-x86_64.AppImage.zsync',
        raw: text,
      });
    },
  );

  void test(
    'Hello_World has an empty (all-NUL) section: no update information',
    { skip: skipWithoutCorpus() },
    async () => {
      const text = await readUpdateInfoText(
        corpusFile('appimages', 'Hello_World-x86_64.xz.AppImage') ?? '',
        2,
      );
      assert.equal(text, '');
      assert.deepEqual(parseUpdateInfo(text), { transport: 'none' });
    },
  );

  void test('a fixture section round-trips; type 1 reads the ISO 9660 field at 33651', async () => {
    const body = await fixtureAppImage('ui', '1', {
      updateInfo: 'zsync|https://example.org/ui.AppImage.zsync',
    });
    const dir = await mkdtemp(join(tmpdir(), 'ak-ui-'));
    try {
      const f = join(dir, 'ui.AppImage');
      await writeFile(f, body);
      assert.equal(await readUpdateInfoText(f, 2), 'zsync|https://example.org/ui.AppImage.zsync');
      const iso = Buffer.alloc(40_000);
      iso.write('pling-v1-zsync|1234567|App-*-x86_64.AppImage', 33651);
      const t1 = join(dir, 'type1');
      await writeFile(t1, iso);
      const text = await readUpdateInfoText(t1, 1);
      assert.deepEqual(parseUpdateInfo(text), {
        transport: 'pling-v1-zsync',
        id: '1234567',
        pattern: 'App-*-x86_64.AppImage',
        raw: text,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  void test('malformed and unknown strings stay unknown, with their text', () => {
    for (const raw of ['bintray-zsync|a|b|c|d', 'gh-releases-zsync|only|three', 'zsync|ftp://x', 'garbage']) {
      assert.deepEqual(parseUpdateInfo(raw), { transport: 'unknown', raw });
    }
  });
});

void describe('AppStream URLs', () => {
  void test('vcs-browser and homepage, entities decoded, other schemes and kinds ignored', () => {
    const xml = `<component><url type="bugtracker">https://x/bugs</url>
      <url type="homepage">javascript:alert(1)</url><url type='homepage'>https://example.org/?a=1&amp;b=2</url>
      <url type="vcs-browser">https://github.com/o/r</url></component>`;
    assert.deepEqual(parseAppStreamUrls(xml), {
      homepage: 'https://example.org/?a=1&b=2',
      vcsBrowser: 'https://github.com/o/r',
    });
  });

  void test('the component id: the first <id>, reverse-DNS characters only', () => {
    assert.equal(
      parseAppStreamUrls('<component type="desktop"><id>md.obsidian.Obsidian</id></component>').id,
      'md.obsidian.Obsidian',
    );
    assert.equal(parseAppStreamUrls('<id>bad id; rm -rf</id>').id, undefined);
    assert.equal(parseAppStreamUrls(`<id>${'a'.repeat(300)}</id>`).id, undefined);
  });

  void test('a hostile document (entities, huge text) yields nothing and does not expand anything', () => {
    const xml = `<!DOCTYPE x [<!ENTITY a "${'b'.repeat(1000)}">]><url type="homepage">&a;&a;</url><url type="homepage">${'h'.repeat(5000)}</url>`;
    assert.deepEqual(parseAppStreamUrls(xml), {});
  });
});

void describe('file names of other managers and derived globs', () => {
  void test('AppImageLauncher and Gear Lever names give the app name', () => {
    assert.equal(managerOf(`Krita_${'0f'.repeat(16)}.AppImage`), 'appimagelauncher');
    assert.equal(nameFromFileName(`Krita_${'0f'.repeat(16)}.AppImage`), 'Krita');
    assert.equal(managerOf('gearlever_obsidian_1a2b3c.appimage'), 'gearlever');
    assert.equal(nameFromFileName('gearlever_obsidian_1a2b3c.appimage'), 'obsidian');
    assert.equal(nameFromFileName('Tool-1.2.3-x86_64.AppImage'), 'Tool');
  });

  void test('the version becomes *, the architecture stays, glob characters are escaped', () => {
    assert.equal(globForName('App-1.4.2-x86_64.AppImage', 'v1.4.2'), 'App-*-x86_64.AppImage');
    assert.equal(globForName('App_2024.05.01_amd64.AppImage', 'nightly'), 'App_*_amd64.AppImage');
    assert.equal(globForName('App[beta]-x86_64.AppImage', 'continuous'), 'App\\[beta\\]-x86_64.AppImage');
  });
});
