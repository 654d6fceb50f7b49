// `add URL` end to end: the built CLI writes recipes from hub, lab and gitea releases served by the
// sim (several architectures, AppImage and ZIP packaging), and direct recipes from what a server sends.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';

interface AddJson {
  name: string;
  kind: string;
  file: string | null;
  recipe: { name: string; strategy: Record<string, unknown>; zsync?: unknown };
  release: { tag: string; asset: string } | null;
  notes: string[];
  update?: { apps: { name: string; status: string }[] };
}
interface ErrorJson {
  error: { code: string; message: string; hint?: string | null };
}

const suite = useSimSuite(
  (sim, lines: string[] = []) =>
    makeSimWorld(sim, {
      configLines: [
        `lab_release_web_url: ${sim.secondUrl}`,
        `lab_release_api_url: ${sim.labApiUrl}`,
        'manage_desktop_files: false',
        ...lines,
      ],
    }),
  disposeFixtureAppImages,
);
after(disposeFixtureAppImages);

async function recipeFile(w: SimWorld, app: string): Promise<Record<string, unknown>> {
  return parse(await readFile(join(w.home.appsDir, app, `${app}.yml`), 'utf8')) as Record<string, unknown>;
}

const assetsFor = (stem: string, version: string, kinds: string[]) =>
  kinds.map((k) => ({
    name: `${stem}-${version}-${k}`,
    url: suite.sim.putAsset(`/dl/${stem}-${version}-${k}`, Buffer.from(k)),
  }));

void describe('add URL', () => {
  void test('hub: several architectures and formats → version and architecture replaced by *, zsync auto; written, validated, printed', async () => {
    const w = await suite.world();
    suite.sim.hub.setLatest('e2e', 'Multi', {
      tag: 'v1.4.2',
      assets: assetsFor('Multi', '1.4.2', [
        'x86_64.AppImage',
        'x86_64.AppImage.zsync',
        'aarch64.AppImage',
        'armhf.AppImage',
        'amd64.deb',
        'linux.tar.gz',
      ]),
    });
    const r = await w.run<AddJson>(['--json', 'add', 'https://github.com/e2e/Multi/releases']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.json?.kind, 'forge');
    assert.deepEqual(r.json?.release, { tag: 'v1.4.2', asset: 'Multi-1.4.2-x86_64.AppImage' });
    assert.deepEqual(await recipeFile(w, 'multi'), {
      name: 'multi',
      strategy: {
        strategy: 'forge',
        repository: 'https://github.com/e2e/Multi',
        asset_match: 'Multi-*.AppImage',
      },
      zsync: 'auto',
    });
    const v = await w.run(['validate', 'multi']);
    assert.equal(v.code, 0, v.stdout + v.stderr);
    const human = await w.run(['add', '--dry-run', '--name', 'multi2', 'https://github.com/e2e/Multi']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /asset_match: Multi-\*\.AppImage/);
    assert.deepEqual((await readdir(w.home.appsDir)).sort(), ['multi']);
  });

  void test('lab: nested project, arm64 and x86_64 AppImages', async () => {
    const w = await suite.world();
    suite.sim.lab.setLatest('group/sub/labby', {
      tag: '2.0.0',
      assets: assetsFor('labby', '2.0.0', ['arm64.AppImage', 'x86_64.AppImage', 'x86_64.flatpak']),
    });
    const r = await w.run<AddJson>(['--json', 'add', `${suite.sim.secondUrl}/group/sub/labby/-/releases`]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((await recipeFile(w, 'labby')).strategy, {
      strategy: 'forge',
      repository: `${suite.sim.secondUrl}/group/sub/labby`,
      asset_match: 'labby-*.AppImage',
    });
  });

  void test('gitea: ZIP packaging → inner_asset_match; a release without AppImages lists its assets', async () => {
    const w = await suite.world();
    suite.sim.gitea.setFlavor('gitea');
    suite.sim.gitea.setReleases('team', 'zipped', [
      {
        tag: 'v3.1',
        assets: assetsFor('Zipped', '3.1', ['linux-x86_64.zip', 'linux-aarch64.zip', 'windows.exe']),
      },
    ]);
    const gitea = suite.sim.url.replace('127.0.0.1', 'localhost');
    const r = await w.run<AddJson>(['--json', 'add', `${gitea}/team/zipped`]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((await recipeFile(w, 'zipped')).strategy, {
      strategy: 'forge',
      repository: `${gitea}/team/zipped`,
      asset_match: 'Zipped-*-linux*.zip',
      inner_asset_match: '*.AppImage',
    });
    suite.sim.gitea.setReleases('team', 'noapp', [
      { tag: 'v1', assets: assetsFor('noapp', '1', ['amd64.deb', 'x86_64.rpm']) },
    ]);
    const bad = await w.run<ErrorJson>(['--json', 'add', `${gitea}/team/noapp`]);
    assert.equal(bad.code, 1, bad.stdout + bad.stderr);
    assert.equal(bad.json?.error.code, 'ADD_NO_APPIMAGE');
    assert.match(bad.json?.error.hint ?? '', /noapp-1-amd64\.deb, noapp-1-x86_64\.rpm/);
  });

  void test('any other URL → direct recipe with check_method etag; --install installs it', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('directly', '5.0');
    const url = suite.sim.putAsset('/files/Directly-latest-x86_64.AppImage', body);
    const r = await w.run<AddJson>(['--json', 'add', '--install', url]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.json?.kind, 'direct');
    assert.deepEqual((await recipeFile(w, 'directly-latest')).strategy, {
      strategy: 'direct',
      url,
      check_method: 'etag',
    });
    assert.equal(r.json?.update?.apps[0]?.status, 'updated');
  });
});
