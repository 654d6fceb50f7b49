/**
 * fp-appimage-updater's published examples (../shared/corpus/fp-examples), loaded unchanged: the
 * recipes are copied as they are; only the copy's config.yml gains the hub URL overrides (in fp's
 * own template form) that point at the simulator, and the direct recipes' public hosts are routed
 * to it by a test preload. The two resolver scripts are left out of the corpus, so the test writes
 * its own beside the recipes that name them.
 */
import assert from 'node:assert/strict';
import { appendFile, chmod, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSim, type Sim } from '../../../sim/index.js';
import { corpusFile, skipWithoutCorpus } from '../../helpers/corpus.js';
import { hostMapEnv } from '../../helpers/host-map.js';
import { runCli } from '../../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';
import type { CheckJson } from './helpers.js';

interface ValidateJson {
  ok: boolean;
  apps: {
    name: string;
    file: string;
    ok: boolean;
    strategy?: string;
    error?: { code: string; issues?: { line: number; col: number; message: string }[] };
  }[];
}

const VALID = [
  'curseforge',
  'dummy-direct',
  'hayase',
  'hydra-launcher',
  'krita-next',
  'linuxtoys',
  'obsidian',
  'sioyek',
  'whatpulse',
  'winboat',
];

// Hub releases the forge recipes follow, with decoys the patterns must not pick.
const HUB: { repo: string; tag: string; assets: string[]; want: string }[] = [
  {
    repo: 'hydralauncher/hydra',
    tag: 'v3.4.0',
    assets: ['hydralauncher-3.4.0.AppImage', 'hydralauncher_3.4.0_amd64.deb'],
    want: 'v3.4.0',
  },
  {
    repo: 'pkgforge-dev/LinuxToys-AppImage',
    tag: '5.1@2025-06-01',
    assets: [
      'LinuxToys-5.1-anylinux-x86_64.AppImage',
      'LinuxToys-5.1-anylinux-x86_64.AppImage.zsync',
      'LinuxToys-5.1-anylinux-aarch64.AppImage',
    ],
    want: '5.1@2025-06-01',
  },
  {
    repo: 'obsidianmd/obsidian-releases',
    tag: 'v1.8.10',
    // A full match: `-arm64` must not slip through the regex's `[0-9.]+`.
    assets: ['Obsidian-1.8.10.AppImage', 'Obsidian-1.8.10-arm64.AppImage', 'obsidian-1.8.10.tar.gz'],
    want: 'v1.8.10',
  },
  {
    repo: 'ahrm/sioyek',
    tag: 'v2.0.0',
    assets: ['sioyek-release-linux.zip', 'sioyek-release-mac.zip'],
    want: 'v2.0.0',
  },
  {
    repo: 'TibixDev/winboat',
    tag: 'v0.8.7',
    assets: ['winboat-0.8.7-x86_64.AppImage', 'winboat-0.8.7-arm64.AppImage'],
    want: 'v0.8.7',
  },
];

void describe('fp-appimage-updater examples, unchanged', { skip: skipWithoutCorpus() }, () => {
  let sim: Sim;
  let h: TmpHome;
  let dir: string;

  before(async () => {
    sim = await startSim();
    h = await makeTmpHome();
    dir = join(h.root, 'fp-examples');
    await cp(corpusFile('fp-examples') ?? '', dir, { recursive: true });
    await chmod(dir, 0o755);
    for (const app of ['hayase', 'krita-next']) {
      await chmod(join(dir, 'apps', app), 0o755);
      const url = sim.putAsset(`/scripts/${app}/${app}-7.0-x86_64.AppImage`, Buffer.from(`${app} 7.0`));
      const script = join(dir, 'apps', app, 'resolver.sh');
      await writeFile(script, `#!/bin/bash\necho ${url}\necho 7.0\n`, { mode: 0o755 });
    }
  });
  after(async () => {
    await h.cleanup();
    await sim.stop();
  });

  void test('10 of 10 valid recipes validate, and dummy-invalid is rejected at its lines', async () => {
    const r = await runCli<ValidateJson>(['--config-dir', dir, 'validate', '--json'], { env: h.env });
    assert.equal(r.code, 1, r.stderr);
    const ok = r.json?.apps.filter((a) => a.ok).map((a) => a.name);
    assert.deepEqual(ok, VALID);
    assert.equal(
      r.json?.apps.find((a) => a.name === 'hayase')?.file,
      join(dir, 'apps', 'hayase', 'main.yml'),
    );
    const bad = r.json?.apps.filter((a) => !a.ok) ?? [];
    assert.deepEqual(
      bad.map((a) => a.name),
      ['dummy-invalid'],
    );
    assert.deepEqual(
      bad[0]?.error?.issues?.map((i) => [i.line, i.col, i.message]),
      [
        [6, 17, 'strategy.check_method: must be "etag" or "last-modified"'],
        [7, 8, 'zsync: must be true or false, or "auto", or an http:// or https:// URL'],
      ],
    );
    const human = await runCli(['--config-dir', dir, 'validate'], { env: h.env });
    assert.match(human.stdout, /10 valid, 1 invalid/);
  });

  void test('every valid recipe resolves against the simulator (hosts rewritten in the config.yml copy only)', async () => {
    for (const { repo, tag, assets } of HUB) {
      const [owner = '', name = ''] = repo.split('/');
      sim.hub.setLatest(owner, name, {
        tag,
        assets: assets.map((a) => ({
          name: a,
          url: sim.putAsset(`/${repo}/releases/download/${tag}/${a}`, Buffer.from(a)),
        })),
      });
    }
    sim.putAsset('/downloads/curseforge-latest-linux.AppImage', Buffer.from('cf'), { etag: '"cf-1"' });
    sim.putAsset('/latest/linux/whatpulse-linux-latest_amd64.AppImage', Buffer.from('wp'), {
      etag: '"wp-1"',
    });
    const config = join(dir, 'config.yml');
    const original = await readFile(config, 'utf8');
    await rm(config);
    await writeFile(config, original);
    await appendFile(
      config,
      [
        '',
        `github_release_api_url: "${sim.url}/repos/{account}/{repository}/releases/latest"`,
        `github_release_web_url: "${sim.url}/{account}/{repository}"`,
        '',
      ].join('\n'),
    );

    const env = {
      ...h.env,
      ...hostMapEnv({ 'curseforge.overwolf.com': sim.url, 'releases.whatpulse.org': sim.url }),
    };
    const r = await runCli<CheckJson>(['--config-dir', dir, 'check', '--json'], { env });
    const apps = new Map(r.json?.apps.map((a) => [a.name, a]));
    const resolved = [...apps.values()].filter((a) => a.status === 'update_available').map((a) => a.name);
    assert.deepEqual(
      resolved,
      VALID.filter((n) => n !== 'dummy-direct'),
      r.stdout + r.stderr,
    );
    for (const { repo, want } of HUB) {
      const app = [...apps.values()].find((a) => a.url?.includes(`/${repo}/`));
      assert.equal(app?.latest_version, want, repo);
    }
    assert.equal(
      apps.get('obsidian')?.url,
      `${sim.url}/obsidianmd/obsidian-releases/releases/download/v1.8.10/Obsidian-1.8.10.AppImage`,
    );
    assert.equal(apps.get('hayase')?.latest_version, '7.0');
    assert.equal(
      apps.get('curseforge')?.url,
      'https://curseforge.overwolf.com/downloads/curseforge-latest-linux.AppImage',
    );
    // `ignore: true` in fp's own test recipe: listed, skipped, as fp does.
    assert.equal(apps.get('dummy-direct')?.status, 'skipped');
    assert.equal(apps.get('dummy-invalid')?.status, 'failed');
    // The hub requests went to the template's expansion on the sim, never to a public host.
    const hubPaths = sim.requests.filter((q) => q.path.startsWith('/repos/')).map((q) => q.path);
    assert.ok(hubPaths.includes('/repos/hydralauncher/hydra/releases/latest'), hubPaths.join(' '));
  });
});
