// `add` writes recipes that keep working (issue 21 §2): a version-free, architecture-neutral
// asset_match (the Obsidian case, followed through the next release), the app named after the
// asset, ambiguous releases resolved by flag or refused with the candidates, the URLs people copy,
// and `_AppImage` assets confirmed by their magic bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import type { SimReleaseAsset } from '../../../sim/index.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { runCliInPty, screenLines } from '../../helpers/pty.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import type { CheckJson } from '../check/helpers.js';
import type { UpdateJson } from '../../helpers/update-json.js';

interface AddJson {
  name: string;
  kind: string;
  recipe: { name: string; strategy: Record<string, unknown> };
  release: { tag: string; asset: string } | null;
  notes: string[];
}
interface ErrorJson {
  error: { code: string; message: string; hint?: string | null; details?: Record<string, unknown> };
}

const suite = useSimSuite(
  (sim) => makeSimWorld(sim, { configLines: ['manage_desktop_files: false'] }),
  disposeFixtureAppImages,
);
after(disposeFixtureAppImages);

async function recipeOf(w: SimWorld, app: string): Promise<Record<string, unknown>> {
  return parse(await readFile(join(w.home.appsDir, app, `${app}.yml`), 'utf8')) as Record<string, unknown>;
}

/** Serves `body` at the hub's download path of `repo` `tag` as `name`. */
function asset(repo: string, tag: string, name: string, body: Buffer): SimReleaseAsset {
  return { name, url: suite.sim.putAsset(`/e2e/${repo}/releases/download/${tag}/${name}`, body) };
}

// electron-builder's naming, and its latest-linux.yml with the base64 SHA-512 the update verifies.
async function obsidianRelease(version: string): Promise<void> {
  const tag = `v${version}`;
  const x64 = await fixtureAppImage('obsidian', version);
  const arm = await fixtureAppImage('obsidian', version, { arch: 'aarch64' });
  const yml = (file: string, body: Buffer): Buffer =>
    Buffer.from(
      `version: ${version}\nfiles:\n  - url: ${file}\n    sha512: ${createHash('sha512').update(body).digest('base64')}\n    size: ${body.length}\npath: ${file}\n`,
    );
  const x64Name = `Obsidian-${version}.AppImage`;
  const armName = `Obsidian-${version}-arm64.AppImage`;
  suite.sim.hub.setLatest('e2e', 'obsidian-releases', {
    tag,
    assets: [
      asset('obsidian-releases', tag, x64Name, x64),
      asset('obsidian-releases', tag, armName, arm),
      asset('obsidian-releases', tag, `obsidian_${version}_amd64.deb`, Buffer.from('deb')),
      asset('obsidian-releases', tag, 'latest-linux.yml', yml(x64Name, x64)),
      asset('obsidian-releases', tag, 'latest-linux-arm64.yml', yml(armName, arm)),
    ],
  });
}

void describe('add: recipes that keep working', () => {
  void test('Obsidian: asset_match Obsidian-*.AppImage named obsidian; check and update follow 1.8.0 with its -arm64 sibling', async () => {
    const w = await suite.world();
    await obsidianRelease('1.7.7');
    const r = await w.run<AddJson>(['--json', 'add', `${suite.sim.url}/e2e/obsidian-releases`]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.json?.recipe.strategy.asset_match, 'Obsidian-*.AppImage', r.stdout);
    assert.equal(r.json?.name, 'obsidian');
    assert.deepEqual((await recipeOf(w, 'obsidian')).strategy, {
      strategy: 'forge',
      repository: `${suite.sim.url}/e2e/obsidian-releases`,
      asset_match: 'Obsidian-*.AppImage',
    });
    const first = await w.run<UpdateJson>(['--json', 'update', 'obsidian']);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(first.json?.apps[0]?.to_version, 'v1.7.7');

    await obsidianRelease('1.8.0');
    const check = await w.run<CheckJson>(['--json', 'check', 'obsidian']);
    assert.equal(check.json?.apps[0]?.status, 'update_available', check.stdout + check.stderr);
    assert.equal(check.json?.apps[0]?.latest_version, 'v1.8.0');
    const next = await w.run<UpdateJson>(['--json', 'update', 'obsidian']);
    assert.equal(next.code, 0, next.stdout + next.stderr);
    assert.equal(next.json?.apps[0]?.status, 'updated');
    assert.equal(next.json?.apps[0]?.to_version, 'v1.8.0');
    assert.ok(
      suite.sim.requests.some(
        (q) => q.path === '/e2e/obsidian-releases/releases/download/v1.8.0/latest-linux.yml',
      ),
      'the update read latest-linux.yml to verify the download',
    );
    assert.match(next.json?.apps[0]?.path ?? '', /Obsidian|obsidian/);
  });

  void test('ambiguous release (BambuStudio): the error lists the candidates and names the flags, exit 2; --asset-match / --asset-regex choose', async () => {
    const w = await suite.world();
    const tag = 'v01.10.01.50';
    const names = ['ubuntu_24.04', 'ubuntu_22.04', 'fedora'].map(
      (d) => `Bambu_Studio_linux_${d}_${tag.replace(/^v/, 'V')}.AppImage`,
    );
    suite.sim.hub.setLatest('e2e', 'BambuStudio', {
      tag,
      assets: names.map((n) => asset('BambuStudio', tag, n, Buffer.from(n))),
    });
    const url = `${suite.sim.url}/e2e/BambuStudio`;
    const bad = await w.run<ErrorJson>(['--json', 'add', url]);
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.equal(bad.json?.error.code, 'ADD_ASSET_AMBIGUOUS');
    for (const n of names) assert.ok(bad.json?.error.message.includes(n), bad.json?.error.message);
    assert.doesNotMatch(bad.json?.error.message ?? '', /asset_match "\*"/);
    assert.match(bad.json?.error.hint ?? '', /--asset-match GLOB/);
    assert.match(bad.json?.error.hint ?? '', /--asset-regex RE/);
    const human = await w.run(['add', url]);
    assert.equal(human.code, 2);
    assert.match(human.stderr, /fedora/);

    const glob = await w.run<AddJson>(['--json', 'add', '--asset-match', '*fedora*', url]);
    assert.equal(glob.code, 0, glob.stdout + glob.stderr);
    assert.equal(glob.json?.name, 'bambu-studio');
    assert.equal(glob.json?.release?.asset, names[2]);
    assert.equal(glob.json?.recipe.strategy.asset_match, 'Bambu_Studio_linux_fedora_V*.AppImage');

    const regex = await w.run<AddJson>([
      '--json',
      'add',
      '--name',
      'bambu24',
      '--asset-regex',
      '.*ubuntu_24.*',
      url,
    ]);
    assert.equal(regex.code, 0, regex.stdout + regex.stderr);
    assert.equal(regex.json?.release?.asset, names[0]);
    assert.equal(regex.json?.recipe.strategy.asset_match, 'Bambu_Studio_linux_ubuntu_24.04_V*.AppImage');
    const v = await w.run(['validate']);
    assert.equal(v.code, 0, v.stdout + v.stderr);
  });

  void test('a glob cannot say it → asset_match_regex; no version-free pattern at all → said so, nothing written', async () => {
    const w = await suite.world();
    suite.sim.hub.setLatest('e2e', 'port', {
      tag: '1.2',
      assets: [
        asset('port', '1.2', 'Port-1.2.AppImage', Buffer.from('a')),
        asset('port', '1.2', 'Port-1.2-portable.AppImage', Buffer.from('b')),
      ],
    });
    const r = await w.run<AddJson>([
      '--json',
      'add',
      '--asset-match',
      'Port-1.2.AppImage',
      `${suite.sim.url}/e2e/port`,
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const strategy = r.json?.recipe.strategy ?? {};
    assert.equal(strategy.asset_match, undefined);
    assert.equal(typeof strategy.asset_match_regex, 'string');
    const re = new RegExp(String(strategy.asset_match_regex));
    assert.ok(re.test('Port-1.2.AppImage') && re.test('Port-1.10.3.AppImage'));
    assert.ok(!re.test('Port-1.2-portable.AppImage'));
    const check = await w.run<CheckJson>(['--json', 'check', 'port']);
    assert.equal(check.json?.apps[0]?.url?.endsWith('/Port-1.2.AppImage'), true, check.stdout + check.stderr);

    suite.sim.hub.setLatest('e2e', 'both', {
      tag: '1.3',
      assets: [
        asset('both', '1.3', 'Both-1.2.AppImage', Buffer.from('a')),
        asset('both', '1.3', 'Both-1.3.AppImage', Buffer.from('b')),
      ],
    });
    const none = await w.run<ErrorJson>([
      '--json',
      'add',
      '--asset-match',
      'Both-1.2.AppImage',
      `${suite.sim.url}/e2e/both`,
    ]);
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.equal(none.json?.error.code, 'ADD_PATTERN_NONE');
    assert.match(none.json?.error.message ?? '', /Both-1\.2\.AppImage/);
    await assert.rejects(readFile(join(w.home.appsDir, 'both', 'both.yml')), { code: 'ENOENT' });
  });

  void test('URLs people copy: releases/download/TAG/FILE, releases/tag/TAG, owner/repo, git@host:owner/repo.git, .git', async () => {
    const w = await suite.world();
    const tag = '3.2.1';
    suite.sim.hub.setLatest('e2e', 'Copied', {
      tag,
      assets: [
        asset('Copied', tag, `Copied-${tag}-x86_64.AppImage`, Buffer.from('x')),
        asset('Copied', tag, `Copied-${tag}-aarch64.AppImage`, Buffer.from('a')),
        asset('Copied', tag, `Copied-Portable-${tag}-x86_64.AppImage`, Buffer.from('p')),
      ],
    });
    const repo = `${suite.sim.url}/e2e/Copied`;
    const fromFile = await w.run<AddJson>([
      '--json',
      'add',
      '--dry-run',
      `${repo}/releases/download/3.1.0/Copied-Portable-3.1.0-x86_64.AppImage`,
    ]);
    assert.equal(fromFile.code, 0, fromFile.stdout + fromFile.stderr);
    assert.equal(fromFile.json?.kind, 'forge');
    assert.equal(fromFile.json?.recipe.strategy.repository, repo);
    assert.equal(fromFile.json?.release?.asset, `Copied-Portable-${tag}-x86_64.AppImage`);
    assert.equal(fromFile.json?.name, 'copied-portable');
    const urls: [string, string][] = [
      [`${repo}/releases/tag/${tag}`, repo],
      [`${repo}.git`, repo],
      ['e2e/Copied', repo],
      // The hub's public host: its API is the sim's through hub_release_api_url.
      ['git@github.com:e2e/Copied.git', 'https://github.com/e2e/Copied'],
    ];
    for (const [url, repository] of urls) {
      const r = await w.run<AddJson>(['--json', 'add', '--dry-run', '--asset-match', 'Copied-[0-9]*', url]);
      assert.equal(r.code, 0, `${url}: ${r.stdout}${r.stderr}`);
      assert.equal(r.json?.recipe.strategy.repository, repository, url);
      assert.equal(r.json?.release?.asset, `Copied-${tag}-x86_64.AppImage`, url);
    }
  });

  void test('assets named …_AppImage are candidates when the AppImage magic confirms them', async () => {
    const w = await suite.world();
    const tag = '24.2.7';
    const real = await fixtureAppImage('libreoffice', tag);
    suite.sim.hub.setLatest('e2e', 'LibreOffice', {
      tag,
      assets: [
        asset('LibreOffice', tag, `LibreOffice_${tag}_Linux_x86-64_AppImage`, real),
        asset(
          'LibreOffice',
          tag,
          `LibreOffice_${tag}_Linux_x86-64_SDK_AppImage`,
          Buffer.from('not an AppImage'),
        ),
        asset('LibreOffice', tag, `LibreOffice_${tag}_Linux_x86-64_rpm.tar.gz`, Buffer.from('rpm')),
      ],
    });
    const r = await w.run<AddJson>(['--json', 'add', `${suite.sim.url}/e2e/LibreOffice`]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.json?.release?.asset, `LibreOffice_${tag}_Linux_x86-64_AppImage`);
    assert.equal(r.json?.name, 'libreoffice');
    const up = await w.run<UpdateJson>(['--json', 'update', 'libreoffice']);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    assert.equal(up.json?.apps[0]?.status, 'updated');
  });
});

void describe('add on a terminal', () => {
  void test('an ambiguous release asks which AppImage to follow; the answer is the recipe', async () => {
    const w = await suite.world();
    const tag = 'v7.1';
    const names = ['basic', 'standard', 'standard.help'].map((k) => `Office-7.1.${k}-x86_64.AppImage`);
    suite.sim.hub.setLatest('e2e', 'Office', {
      tag,
      assets: names.map((n) => asset('Office', tag, n, Buffer.from(n))),
    });
    const run = await runCliInPty(['add', `${suite.sim.url}/e2e/Office`], {
      env: { ...w.env, NO_COLOR: '1' },
      columns: 120,
      answer: { after: /follow which one\? \[1-3/, text: '2\n' },
      timeoutMs: 30_000,
    });
    const screen = screenLines(run.raw).join('\n');
    assert.equal(run.code, 0, screen);
    assert.match(screen, / 1\) Office-7\.1\.basic-x86_64\.AppImage/);
    assert.match(screen, / 3\) Office-7\.1\.standard\.help-x86_64\.AppImage/);
    const recipe = await recipeOf(w, 'office');
    assert.equal((recipe.strategy as Record<string, unknown>).asset_match, 'Office-*.standard-*.AppImage');
  });
});
