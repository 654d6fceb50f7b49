// Section-less AppImages end to end through the built CLI: an image whose e_shstrndx is SHN_UNDEF or
// whose e_shnum is 0 is unsigned (installed under tofu, integrated from the payload the runtime
// finds, SIG_MISSING with a pinned key) and adoptable; a table that lies about `.sha256_sig` fails.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { publish, useUpdateSuite } from '../update/harness.js';
import {
  sectionTableRange,
  withoutSectionNames,
  withoutSectionTable,
  withSection,
} from '../../helpers/elf-patch.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { appOf } from '../../helpers/json-output.js';
import type { CliRun } from '../../helpers/run-cli.js';
import { execInstalled } from '../../helpers/run-program.js';

const KEY = '0123456789ABCDEF0123456789ABCDEF01234567';

void describe('update and adopt: AppImages without section names', { concurrency: true }, () => {
  const suite = useUpdateSuite();

  async function build(app: string, version: string, extra = {}): Promise<Buffer> {
    return fixtureAppImage(app, version, {
      signatureSections: true,
      updateInfo: 'zsync|https://x.invalid/a',
      ...extra,
    });
  }

  void test('tofu installs SHN_UNDEF then e_shnum 0 unsigned, integrated from the SquashFS the runtime finds', async () => {
    const w = await suite.world('manage_desktop_files: true');
    await w.forgeRecipe('nameless');
    await publish(suite.sim, 'nameless', '1.0.0', {
      body: withoutSectionNames(await build('nameless', '1.0.0')),
    });
    const r1 = await w.update();
    assert.equal(r1.code, 0, r1.stdout + r1.stderr);
    assert.equal(appOf(r1, 'nameless').status, 'updated');
    await publish(suite.sim, 'nameless', '2.0.0', {
      body: withoutSectionTable(await build('nameless', '2.0.0')),
    });
    const r2 = await w.update();
    assert.equal(r2.code, 0, r2.stdout + r2.stderr);
    const o = appOf(r2, 'nameless');
    assert.equal(o.status, 'updated');
    assert.ok(o.desktop?.file, JSON.stringify(o.desktop));
    const state = await w.state();
    const installed = state.apps.nameless?.installed;
    assert.equal(installed?.version, '2.0.0');
    assert.equal(await execInstalled(installed.file), 'nameless 2.0.0');
    const list = (await w.cli(['--json', 'list'])) as CliRun<{
      apps: { name: string; signature: unknown }[];
    }>;
    assert.equal(appOf(list, 'nameless').signature, null);
  });

  void test('a pinned key (signing_key) → SIG_MISSING; a lying .sha256_sig → SIG_BAD; nothing installed', async () => {
    const w = await suite.world('manage_desktop_files: false');
    await w.forgeRecipe('pinless', `signing_key: "${KEY}"`);
    await publish(suite.sim, 'pinless', '1.0.0', {
      body: withoutSectionTable(await build('pinless', '1.0.0')),
    });
    const r1 = await w.update();
    assert.equal(r1.code, 1, r1.stdout + r1.stderr);
    assert.equal(appOf(r1, 'pinless').error?.code, 'SIG_MISSING');

    await w.forgeRecipe('liar');
    const real = await build('liar', '1.0.0');
    const lie = withSection(real, '.sha256_sig', sectionTableRange(real)[0] - 16, 1024);
    await publish(suite.sim, 'liar', '1.0.0', { body: lie });
    const r2 = await w.update(['liar']);
    assert.equal(r2.code, 1, r2.stdout + r2.stderr);
    const o = appOf(r2, 'liar');
    assert.equal(o.error?.code, 'SIG_BAD', JSON.stringify(o.error));
    assert.match(o.error?.message ?? '', /overlaps the section header table/);
    assert.equal((await w.state()).apps.liar?.installed, undefined);
  });

  void test('adopt accepts an AppImage without section names, using its AppStream URL', async () => {
    const w = await suite.world();
    const metainfo =
      '<?xml version="1.0"?><component type="desktop-application"><id>org.example.anon</id>' +
      '<url type="vcs-browser">https://github.com/e2e/anon</url></component>';
    const body = withoutSectionNames(
      await build('anon', '1.0.0', {
        extraFiles: { 'usr/share/metainfo/org.example.anon.appdata.xml': metainfo },
      }),
    );
    const dir = join(w.home.root, 'downloads');
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'Anon-1.0.0-x86_64.AppImage');
    await writeFile(file, body, { mode: 0o755 });
    suite.sim.hub.setLatest('e2e', 'anon', {
      tag: 'v1.0.0',
      assets: [{ name: 'Anon-1.0.0-x86_64.AppImage', url: suite.sim.putAsset('/dl/anon', body) }],
    });
    const r = await w.cli(['--json', 'adopt', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const recipe = parse(await readFile(join(w.home.appsDir, 'anon', 'anon.yml'), 'utf8')) as {
      strategy: { repository: string };
    };
    assert.equal(recipe.strategy.repository, 'https://github.com/e2e/anon');
  });
});
