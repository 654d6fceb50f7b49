// `adopt` never dead-ends: `--url` names the source of a file without update information, the
// ADOPT_NO_SOURCE hint is a line that works when pasted, a scan of many files prints no Node
// warning, the plan says what happens to each file and fits the terminal, and files we already
// manage are recognised.
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { displayWidth } from '../../../src/render/display-width.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { runCliInPty } from '../../helpers/pty.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import { incoming } from './incoming.js';

interface Row {
  file: string;
  status: string;
  name: string | null;
  source: string | null;
  action: string | null;
  destination: string | null;
  recipe: { strategy: Record<string, unknown> } | null;
  managed_as: string | null;
  notes: string[];
  error: { code: string; message: string; hint: string | null } | null;
  result: { path: string } | null;
}
interface AdoptJson {
  acted: boolean;
  files: Row[];
}

const suite = useSimSuite((sim) => makeSimWorld(sim), disposeFixtureAppImages);
after(disposeFixtureAppImages);

function rowOf(r: { json?: AdoptJson | undefined }, i = 0): Row {
  const row = r.json?.files[i];
  assert.ok(row, 'a row for the file');
  return row;
}

async function recipeOf(w: SimWorld, app: string): Promise<Record<string, unknown>> {
  return parse(await readFile(join(w.home.appsDir, app, `${app}.yml`), 'utf8')) as Record<string, unknown>;
}

// A typical Electron AppImage: a desktop entry, no update information, no AppStream data.
const electronLike = (): Promise<Buffer> => fixtureAppImage('obsidian', '1.7.7');

void describe('adopt without update information', () => {
  void test('ADOPT_NO_SOURCE hints at `adopt FILE --url URL` and `add NAME`, never a line with a pipe', async () => {
    const w = await suite.world();
    const file = await incoming(w, 'Obsidian-1.7.7.AppImage', await electronLike());
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const hint = rowOf(r).error?.hint ?? '';
    assert.equal(rowOf(r).error?.code, 'ADOPT_NO_SOURCE');
    assert.match(hint, /adopt '?[^ ]*Obsidian-1\.7\.7\.AppImage'? --url URL/);
    assert.match(hint, /add obsidian/);
    // Pasted into a shell, `a|b` pipes into a command named b.
    assert.doesNotMatch(hint, /\|/);
  });

  void test('adopt FILE --url REPOSITORY: a forge recipe derived from the latest release, named after the file', async () => {
    const w = await suite.world();
    const body = await electronLike();
    const file = await incoming(w, 'Obsidian-1.7.7.AppImage', body);
    suite.sim.hub.setLatest('obsidianmd', 'obsidian-releases', {
      tag: 'v1.7.7',
      assets: [
        { name: 'Obsidian-1.7.7.AppImage', url: suite.sim.putAsset('/dl/Obsidian-1.7.7.AppImage', body) },
        {
          name: 'Obsidian-1.7.7-arm64.AppImage',
          url: suite.sim.putAsset('/dl/Obsidian-1.7.7-arm64.AppImage', body),
        },
      ],
    });
    const url = 'https://github.com/obsidianmd/obsidian-releases';
    const r = await w.run<AdoptJson>(['--json', 'adopt', file, '--url', url]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const row = rowOf(r);
    assert.equal(row.status, 'adopted');
    assert.equal(row.name, 'obsidian');
    assert.match(row.source ?? '', /--url https:\/\/github\.com\/obsidianmd\/obsidian-releases/);
    const recipe = await recipeOf(w, 'obsidian');
    assert.equal((recipe.strategy as { strategy: string }).strategy, 'forge');
    assert.equal((recipe.strategy as { repository: string }).repository, url);
    const check = await w.run<{ apps: { status: string }[] }>(['--json', 'check']);
    assert.equal(check.code, 0, check.stdout + check.stderr);
  });

  void test('adopt FILE --url of a plain download: a direct recipe, as `add` writes it', async () => {
    const w = await suite.world();
    const body = await electronLike();
    const file = await incoming(w, 'Obsidian-1.7.7.AppImage', body);
    const url = suite.sim.putAsset('/latest/Obsidian.AppImage', body);
    const r = await w.run<AdoptJson>(['--json', 'adopt', file, '--url', url, '--in-place']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const strategy = (await recipeOf(w, 'obsidian')).strategy as Record<string, unknown>;
    assert.equal(strategy.strategy, 'direct');
    assert.equal(strategy.url, url);
  });

  void test('adopt FILE --url takes what `add` takes: owner/repo, and a copied download URL names the repository and its asset', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('tool', '1.9');
    const file = await incoming(w, 'Tool-Portable-1.9-x86_64.AppImage', body);
    const tag = '2.0';
    const at = (name: string): { name: string; url: string } => ({
      name,
      url: suite.sim.putAsset(`/e2e/Tool/releases/download/${tag}/${name}`, body),
    });
    suite.sim.hub.setLatest('e2e', 'Tool', {
      tag,
      assets: [at(`Tool-${tag}-x86_64.AppImage`), at(`Tool-Portable-${tag}-x86_64.AppImage`)],
    });
    const repo = `${suite.sim.url}/e2e/Tool`;
    // owner/repo is read as the hub's repository; two AppImages fit and adopt never prompts.
    const bare = await w.run<AdoptJson>(['--json', 'adopt', '--dry-run', file, '--url', 'e2e/Tool']);
    assert.equal(rowOf(bare).error?.code, 'ADD_ASSET_AMBIGUOUS', bare.stdout + bare.stderr);
    // A release download URL follows the repository, not the pinned 1.9 file.
    const copied = `${repo}/releases/download/1.9/Tool-Portable-1.9-x86_64.AppImage`;
    const r = await w.run<AdoptJson>(['--json', 'adopt', '--in-place', file, '--url', copied]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(rowOf(r).status, 'adopted');
    const strategy = (await recipeOf(w, 'tool')).strategy as Record<string, unknown>;
    assert.equal(strategy.strategy, 'forge');
    assert.equal(strategy.repository, repo);
    assert.match(String(strategy.asset_match), /^Tool-Portable-\*/);
  });

  void test('--url is refused with --scan and with a URL carrying credentials (exit 2, nothing written)', async () => {
    const w = await suite.world();
    const file = await incoming(w, 'Obsidian-1.7.7.AppImage', await electronLike());
    const scan = await w.run(['adopt', '--scan', join(w.home.root, 'downloads'), '--url', 'https://x.org/a']);
    assert.equal(scan.code, 2, scan.stdout + scan.stderr);
    const cred = await w.run<AdoptJson>(['--json', 'adopt', file, '--url', 'https://u:p@github.com/a/b']);
    assert.equal(cred.code, 1, cred.stdout + cred.stderr);
    assert.equal(rowOf(cred).error?.code, 'ADD_URL_CREDENTIALS');
    assert.doesNotMatch(cred.stdout + cred.stderr, /u:p@/);
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);
  });
});

void describe('adopt --scan', () => {
  void test('sixty files: no Node warning on stderr (every file handle is closed)', async () => {
    const w = await suite.world();
    const dir = join(w.home.root, 'Applications');
    await mkdir(dir, { recursive: true });
    const body = await fixtureAppImage('many', '1.0', {
      updateInfo: 'gh-releases-zsync|e2e|many|latest|Many-*-x86_64.AppImage.zsync',
      padBytes: 200_000,
    });
    for (let i = 0; i < 60; i++) await writeFile(join(dir, `Many${i}-1.0-x86_64.AppImage`), body);
    const r = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json?.files.length, 60);
    assert.doesNotMatch(r.stderr, /Warning|DEP0137|Closing file descriptor/);
  });

  void test('the plan says move/copy/in place and where to; it fits a narrow terminal', async () => {
    const w = await suite.world();
    const dir = join(w.home.root, 'Applications-with-a-rather-long-folder-name-for-the-table');
    await mkdir(dir, { recursive: true });
    const body = await fixtureAppImage('planned', '2.0', {
      updateInfo: 'gh-releases-zsync|e2e|planned|latest|Planned-*-x86_64.AppImage.zsync',
    });
    await writeFile(join(dir, 'Planned-2.0-x86_64.AppImage'), body);
    const moved = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir]);
    assert.equal(rowOf(moved).action, 'move');
    assert.equal(rowOf(moved).destination, join(w.storageDir, 'planned.AppImage'));
    const copied = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir, '--copy']);
    assert.equal(rowOf(copied).action, 'copy');
    const inPlace = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir, '--in-place']);
    assert.equal(rowOf(inPlace).action, 'in-place');
    assert.equal(rowOf(inPlace).destination, join(dir, 'Planned-2.0-x86_64.AppImage'));
    const human = await w.run(['adopt', '--scan', dir]);
    assert.match(human.stdout, /move → .*planned\.AppImage/);

    const pty = await runCliInPty(['adopt', '--scan', dir], { env: w.env, columns: 60 });
    assert.equal(pty.code, 0, pty.raw);
    // eslint-disable-next-line no-control-regex -- the terminal's escapes are stripped to measure
    const lines = pty.raw.replace(/\x1b\[[0-9;]*m/g, '').split(/\r?\n/);
    const tableLines = lines.filter((l) => /planned|STATUS/.test(l) && !l.startsWith(' '));
    assert.ok(tableLines.length >= 2, pty.raw);
    for (const l of tableLines) assert.ok(displayWidth(l) <= 60, `${displayWidth(l)} > 60: ${l}`);
  });

  void test('files we already manage: "already managed as NAME", also when scanning our own storage_dir', async () => {
    const w = await suite.world();
    const body = await fixtureAppImage('joplin', '3.0', {
      updateInfo: 'gh-releases-zsync|e2e|joplin|latest|Joplin-*-x86_64.AppImage.zsync',
    });
    const file = await incoming(w, 'Joplin-3.0-x86_64.AppImage', body);
    const first = await w.run<AdoptJson>(['--json', 'adopt', '--in-place', file]);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const again = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal(rowOf(again).status, 'managed');
    assert.equal(rowOf(again).managed_as, 'joplin');

    const other = await incoming(
      w,
      'Other-1.0-x86_64.AppImage',
      await fixtureAppImage('other', '1.0', {
        updateInfo: 'gh-releases-zsync|e2e|other|latest|Other-*-x86_64.AppImage.zsync',
      }),
    );
    const moved = await w.run<AdoptJson>(['--json', 'adopt', other]);
    assert.equal(moved.code, 0, moved.stdout + moved.stderr);
    const scan = await w.run(['adopt', '--scan', w.storageDir]);
    assert.equal(scan.code, 0, scan.stdout + scan.stderr);
    assert.match(scan.stdout, /other\.AppImage\s+managed\s+other\s.*already managed as other/);
    assert.doesNotMatch(scan.stdout, /APP_EXISTS/);
  });
});
