// `adopt` end to end: real AppImages from the corpus and fixtures with every kind of update
// information, adopted by the built CLI into a temp home whose hub is the sim.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { corpusFile, skipWithoutCorpus } from '../../helpers/corpus.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { sha256 } from '../../helpers/sha256.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import { disposeFixtures as disposeZsyncFixtures, zsyncmake } from '../zsync/harness.js';
import { incoming } from './incoming.js';

interface Row {
  file: string;
  status: string;
  name: string | null;
  source: string | null;
  notes: string[];
  error: { code: string; message: string; hint: string | null } | null;
  result: { path: string; signing_key: string | null; desktop_entry: string | null } | null;
}
interface AdoptJson {
  acted: boolean;
  files: Row[];
}
interface StateJson {
  apps: Record<
    string,
    {
      installed?: { file: string; sha256: string; identity: string; version: string };
      signature?: { fingerprint: string; pinnedBy: string };
      integration?: { desktopFile: string };
    }
  >;
}

const TOOL_KEY = '8D69575148A524659002855E65B43840101B2DC4';

const suite = useSimSuite(
  (sim, lines: string[] = []) => makeSimWorld(sim, { configLines: lines }),
  disposeFixtureAppImages,
);

async function recipeOf(w: SimWorld, app: string): Promise<Record<string, unknown>> {
  return parse(await readFile(join(w.home.appsDir, app, `${app}.yml`), 'utf8')) as Record<string, unknown>;
}

function rowOf(r: { json?: AdoptJson | undefined }, i = 0): Row {
  const row = r.json?.files[i];
  assert.ok(row, 'a row for the file');
  return row;
}

const exists = (p: string): Promise<boolean> =>
  stat(p).then(
    () => true,
    () => false,
  );

after(async () => {
  await disposeFixtureAppImages();
  await disposeZsyncFixtures();
});

void describe('adopt: real AppImages from the corpus', { skip: skipWithoutCorpus() }, () => {
  void test('appimagetool: gh-releases-zsync with a moving tag → hub recipe; key pinned by adopt; first check compares digests', async () => {
    const real = corpusFile('appimages', 'appimagetool-x86_64.AppImage') ?? '';
    const w = await suite.world(['manage_desktop_files: true']);
    const file = await incoming(w, 'appimagetool-x86_64.AppImage', real);
    const bytes = await readFile(real);
    const url = suite.sim.putAsset('/AppImage/AppImageKit/continuous/appimagetool-x86_64.AppImage', bytes);
    suite.sim.hub.setReleases('AppImage', 'AppImageKit', [
      {
        tag: 'continuous',
        prerelease: true,
        assets: [{ name: 'appimagetool-x86_64.AppImage', url, digest: `sha256:${sha256(bytes)}` }],
      },
    ]);
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const row = rowOf(r);
    assert.equal(row.status, 'adopted');
    assert.equal(row.name, 'appimagetool');
    assert.match(row.source ?? '', /gh-releases-zsync\|AppImage\|AppImageKit\|continuous/);
    assert.deepEqual(await recipeOf(w, 'appimagetool'), {
      name: 'appimagetool',
      strategy: {
        strategy: 'forge',
        repository: 'https://github.com/AppImage/AppImageKit',
        asset_match: 'appimagetool-x86_64.AppImage',
        tag: 'continuous',
      },
      zsync: 'auto',
    });
    // Moved (the default) into storage_dir under the recipe's file name; nothing left behind.
    assert.equal(await exists(file), false);
    const state = await w.readState<StateJson>('throw');
    const app = state.apps.appimagetool;
    assert.equal(app?.installed?.file, join(w.storageDir, 'appimagetool.AppImage'));
    assert.equal(app?.installed?.sha256, sha256(bytes));
    assert.equal(app?.signature?.fingerprint, TOOL_KEY);
    assert.equal(app?.signature?.pinnedBy, 'adopt');
    assert.equal(row.result?.signing_key, TOOL_KEY);
    assert.ok(app?.integration?.desktopFile && (await exists(app.integration.desktopFile)));

    const check = await w.run<{ apps: { status: string }[] }>(['--json', 'check']);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.equal(check.json?.apps[0]?.status, 'up_to_date');

    // The tag moves to a new build: an update is offered.
    const other = Buffer.from(bytes);
    other[other.length - 10] = (other[other.length - 10] ?? 0) ^ 1;
    suite.sim.hub.setReleases('AppImage', 'AppImageKit', [
      {
        tag: 'continuous',
        prerelease: true,
        assets: [{ name: 'appimagetool-x86_64.AppImage', url, digest: `sha256:${sha256(other)}` }],
      },
    ]);
    const check2 = await w.run<{ apps: { status: string }[] }>(['--json', 'check']);
    assert.equal(check2.json?.apps[0]?.status, 'update_available', check2.stdout);
  });

  void test('Hello_World has no update information and no AppStream URL: ADOPT_NO_SOURCE with the --url hint; file kept', async () => {
    const hello = corpusFile('appimages', 'Hello_World-x86_64.zstd.AppImage') ?? '';
    const w = await suite.world();
    const file = await incoming(w, 'Hello_World-x86_64.AppImage', hello);
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const row = rowOf(r);
    assert.equal(row.error?.code, 'ADOPT_NO_SOURCE');
    assert.match(row.error?.hint ?? '', /adopt .* --url URL/);
    assert.equal(sha256(await readFile(file)), sha256(await readFile(hello)));
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);
  });
});

void describe('adopt: every transport on fixtures', () => {
  void test('empty update information + AppStream vcs-browser on the hub → latest release, asset_match derived, architecture-neutral', async () => {
    const w = await suite.world();
    const metainfo = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<component type="desktop-application"><id>org.example.streamy</id>',
      '<url type="homepage">https://example.org/streamy</url>',
      '<url type="vcs-browser">https://github.com/e2e/streamy</url></component>',
    ].join('\n');
    const body = await fixtureAppImage('streamy', '2.1.0', {
      extraFiles: { 'usr/share/metainfo/org.example.streamy.appdata.xml': metainfo },
    });
    const file = await incoming(w, 'streamy.AppImage', body);
    const assets = ['x86_64', 'aarch64'].map((arch) => ({
      name: `Streamy-2.1.0-${arch}.AppImage`,
      url: suite.sim.putAsset(`/dl/Streamy-2.1.0-${arch}.AppImage`, body),
    }));
    suite.sim.hub.setLatest('e2e', 'streamy', { tag: 'v2.1.0', assets });
    const r = await w.run<AdoptJson>(['--json', 'adopt', '--copy', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(rowOf(r).source ?? '', /AppStream vcs-browser https:\/\/github\.com\/e2e\/streamy/);
    const recipe = await recipeOf(w, 'streamy');
    assert.deepEqual(recipe.strategy, {
      strategy: 'forge',
      repository: 'https://github.com/e2e/streamy',
      asset_match: 'Streamy-*.AppImage',
    });
    // --copy leaves the original.
    assert.ok(await exists(file));
    assert.ok(await exists(join(w.storageDir, 'streamy.AppImage')));
  });

  void test('the adopted file is the zsync seed of the first update', async () => {
    const w = await suite.world();
    // The same incompressible payload in both versions: what a delta can reuse.
    const shared = { 'usr/share/seeded/data.bin': randomBytes(600_000) };
    const v1 = await fixtureAppImage('seeded', '1.0.0', {
      extraFiles: shared,
      updateInfo: 'gh-releases-zsync|e2e|seeded|latest|Seeded-*-x86_64.AppImage.zsync',
    });
    const v2 = await fixtureAppImage('seeded', '2.0.0', {
      extraFiles: shared,
      updateInfo: 'gh-releases-zsync|e2e|seeded|latest|Seeded-*-x86_64.AppImage.zsync',
    });
    const r = await w.run<AdoptJson>([
      '--json',
      'adopt',
      await incoming(w, 'Seeded-1.0.0-x86_64.AppImage', v1),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const url = suite.sim.putAsset('/dl/Seeded-2.0.0-x86_64.AppImage', v2);
    const control = suite.sim.putAsset('/dl/Seeded-2.0.0-x86_64.AppImage.zsync', await zsyncmake(v2, url));
    suite.sim.hub.setLatest('e2e', 'seeded', {
      tag: 'v2.0.0',
      assets: [
        { name: 'Seeded-2.0.0-x86_64.AppImage', url, digest: `sha256:${sha256(v2)}` },
        { name: 'Seeded-2.0.0-x86_64.AppImage.zsync', url: control },
      ],
    });
    const up = await w.run<{ apps: { status: string; method: string; bytes_reused: number }[] }>([
      '--json',
      'update',
    ]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    const app = up.json?.apps[0];
    assert.equal(app?.status, 'updated');
    assert.equal(app?.method, 'zsync');
    assert.ok((app?.bytes_reused ?? 0) > 300_000, up.stdout);
    const state = await w.readState<StateJson>('throw');
    assert.equal(state.apps.seeded?.installed?.sha256, sha256(v2));
  });

  void test('a wrong architecture in the pattern is fixed and reported; latest-pre → prerelease: only', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('fixer', '1.0', {
      updateInfo: 'gh-releases-zsync|e2e|fixer|latest-pre|Fixer-*-i686.AppImage.zsync',
    });
    const file = await incoming(w, 'Fixer-1.0-i686.AppImage', body);
    const r = await w.run<AdoptJson>(['--json', 'adopt', '--in-place', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(rowOf(r).notes.join('\n'), /i686.*x86_64/);
    const recipe = await recipeOf(w, 'fixer');
    assert.deepEqual(recipe.strategy, {
      strategy: 'forge',
      repository: 'https://github.com/e2e/fixer',
      asset_match: 'Fixer-*-x86_64.AppImage',
      prerelease: 'only',
    });
    const state = await w.readState<StateJson>('throw');
    assert.equal(state.apps.fixer?.installed?.file, file);
  });

  void test('zsync|URL → direct recipe on the control file target with zsync set; latest-all → prerelease: true', async () => {
    const w = await suite.world();
    const zbody = await fixtureAppImage('zapp', '3.0', {
      updateInfo: 'zsync|https://downloads.example.org/zapp/Zapp-latest-x86_64.AppImage.zsync',
    });
    const r = await w.run<AdoptJson>(['--json', 'adopt', await incoming(w, 'zapp.AppImage', zbody)]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(await recipeOf(w, 'zapp'), {
      name: 'zapp',
      strategy: {
        strategy: 'direct',
        url: 'https://downloads.example.org/zapp/Zapp-latest-x86_64.AppImage',
        check_method: 'etag',
      },
      zsync: 'https://downloads.example.org/zapp/Zapp-latest-x86_64.AppImage.zsync',
    });
    const all = await fixtureAppImage('allrel', '1.0', {
      updateInfo: 'gh-releases-zsync|e2e|allrel|latest-all|allrel-*.AppImage.zsync',
    });
    const r2 = await w.run<AdoptJson>(['--json', 'adopt', await incoming(w, 'allrel.AppImage', all)]);
    assert.equal(r2.code, 0, r2.stdout + r2.stderr);
    assert.equal((await recipeOf(w, 'allrel')).strategy && (await recipeOf(w, 'allrel')).zsync, 'auto');
    assert.equal(((await recipeOf(w, 'allrel')).strategy as { prerelease: unknown }).prerelease, true);
  });

  void test('pling-v1-zsync → generated script recipe querying the Pling OCS API (base URL pointed at the sim)', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('plinged', '1.0', {
      updateInfo: 'pling-v1-zsync|1234567|Plinged-*-x86_64.AppImage.zsync',
    });
    const file = await incoming(w, 'Plinged-1.0-x86_64.AppImage', body);
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((await recipeOf(w, 'plinged')).strategy, {
      strategy: 'script',
      script_path: 'resolver.sh',
    });
    const link = (n: string) => suite.sim.putAsset(`/pling/${n}`, body);
    const xml = [
      '<?xml version="1.0"?><ocs><data><content details="full">',
      `<downloadname1>Plinged-2.0-aarch64.AppImage</downloadname1><downloadlink1>${link('a')}</downloadlink1>`,
      `<downloadname2>Plinged-2.0-x86_64.AppImage</downloadname2><downloadlink2>${link('b')}?x=1&amp;y=2</downloadlink2>`,
      '</content></data></ocs>',
    ].join('\n');
    suite.sim.putAsset('/ocs/v1/content/data/1234567', Buffer.from(xml));
    w.env.PLING_API_URL = `${suite.sim.url}/ocs/v1`;
    const check = await w.run<{ apps: { status: string; latest_version: string; url: string }[] }>([
      '--json',
      'check',
    ]);
    assert.equal(check.code, 0, check.stdout + check.stderr);
    assert.equal(check.json?.apps[0]?.status, 'update_available', check.stdout);
    assert.equal(check.json?.apps[0]?.latest_version, '2.0', check.stdout);
    assert.equal(check.json?.apps[0]?.url, `${suite.sim.url}/pling/b?x=1&y=2`);
  });

  void test('a retired transport (bintray-zsync) is a clear error naming the string; the file stays', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('oldie', '0.9', {
      updateInfo: 'bintray-zsync|me|repo|oldie|Oldie-_latestVersion-x86_64.AppImage.zsync',
    });
    const file = await incoming(w, 'oldie.AppImage', body);
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 1);
    const row = rowOf(r);
    assert.equal(row.error?.code, 'ADOPT_TRANSPORT_UNKNOWN');
    assert.match(row.error?.message ?? '', /bintray-zsync\|me\|repo/);
    assert.match(row.error?.message ?? '', /retired/);
    assert.ok(await exists(file));
  });
});

void describe('adopt --scan', () => {
  void test('a folder mixing all kinds: plan table, --dry-run writes nothing, --yes adopts what can be and leaves the rest', async () => {
    const w = await suite.world();
    const dir = join(w.home.root, 'Applications');
    await mkdir(dir, { recursive: true });
    const launcher = await fixtureAppImage('launched', '1.2.0', {
      updateInfo: 'gh-releases-zsync|e2e|launched|latest|Launched-*-x86_64.AppImage.zsync',
    });
    await writeFile(join(dir, `Launched_${'a'.repeat(32)}.AppImage`), launcher, { mode: 0o755 });
    const gear = await fixtureAppImage('geared', '4.0', {
      updateInfo: 'gh-releases-zsync|e2e|geared|latest|Geared-*.AppImage.zsync',
    });
    await writeFile(join(dir, 'gearlever_geared_0a1b2c.appimage'), gear, { mode: 0o755 });
    const retired = await fixtureAppImage('retired', '1', { updateInfo: 'bintray-zsync|a|b|c|d' });
    await writeFile(join(dir, 'retired.AppImage'), retired, { mode: 0o755 });
    await writeFile(join(dir, 'notes.txt'), 'not an AppImage');
    await writeFile(join(dir, 'broken.AppImage'), 'not an ELF at all');
    const elf = corpusFile('appimages', 'elffile');
    if (elf) await copyFile(elf, join(dir, 'plain.AppImage'));
    const before = await readdir(dir);

    const plan = await w.run<AdoptJson>(['adopt', '--scan', dir]);
    assert.equal(plan.code, 0, plan.stdout + plan.stderr);
    assert.match(plan.stdout, /FILE\s+STATUS\s+APP/);
    assert.match(plan.stdout, /Launched_a{32}\.AppImage\s+planned\s+launched/);
    assert.match(plan.stdout, /gearlever_geared_0a1b2c\.appimage\s+planned\s+geared/);
    assert.match(plan.stdout, /retired\.AppImage\s+not_adoptable/);
    assert.match(plan.stdout, /--yes/);
    const dry = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir, '--yes', '--dry-run']);
    assert.equal(dry.json?.acted, false);
    assert.deepEqual((await readdir(dir)).sort(), [...before].sort());
    assert.equal(await exists(join(w.home.stateDir, 'state.json')), false);
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);

    const act = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir, '--yes']);
    assert.equal(act.code, 0, act.stdout + act.stderr);
    const byFile = new Map(act.json?.files.map((f) => [f.file.split('/').pop(), f]));
    assert.equal(byFile.get(`Launched_${'a'.repeat(32)}.AppImage`)?.status, 'adopted');
    assert.equal(
      byFile.get(`Launched_${'a'.repeat(32)}.AppImage`)?.result?.path,
      join(w.storageDir, 'launched.AppImage'),
    );
    assert.equal(byFile.get('gearlever_geared_0a1b2c.appimage')?.status, 'adopted');
    assert.equal(byFile.get('retired.AppImage')?.status, 'not_adoptable');
    assert.equal(byFile.get('broken.AppImage')?.status, 'not_adoptable');
    if (elf) assert.equal(byFile.get('plain.AppImage')?.error?.code, 'NOT_APPIMAGE');
    assert.equal(byFile.has('notes.txt'), false);
    // What could not be adopted is where it was, unchanged.
    assert.deepEqual(
      (await readdir(dir)).sort(),
      ['broken.AppImage', 'notes.txt', 'retired.AppImage', ...(elf ? ['plain.AppImage'] : [])].sort(),
    );
  });
});

void describe('adopt: placing the file', () => {
  // The place step is the one update uses: a storage_dir that cannot be made is STORAGE_NOT_WRITABLE,
  // as for update, not the file system's raw error; nothing is moved and the recipe is dropped.
  void test('a storage_dir that cannot be created: STORAGE_NOT_WRITABLE, the file stays, no recipe', async () => {
    const w = await suite.world();
    await rm(w.storageDir, { recursive: true, force: true });
    await writeFile(w.storageDir, 'a file where storage_dir should be\n');
    const body = await fixtureAppImage('blocked', '1.0.0', {
      updateInfo: 'gh-releases-zsync|e2e|blocked|latest|blocked-*x86_64.AppImage.zsync',
    });
    const file = await incoming(w, 'blocked.AppImage', body);
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const row = rowOf(r);
    assert.equal(row.error?.code, 'STORAGE_NOT_WRITABLE', JSON.stringify(row.error));
    assert.deepEqual(await readFile(file), body);
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);
  });
});
