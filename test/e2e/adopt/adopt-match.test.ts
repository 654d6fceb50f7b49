// `adopt` by catalogue match: a file without update information whose desktop entry names an app
// a configured catalogue lists is proposed with what matched, taken with --yes (or a terminal's
// yes), and its recipe keeps working; weak matches are only suggested; an archived repository is
// refused naming the entry (also by `add NAME`).
import assert from 'node:assert/strict';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'yaml';
import { serveCatalogues, type ServedCatalogues } from '../../../sim/index.js';
import { disposeFixtureAppImages, fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { runCliInPty } from '../../helpers/pty.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { catalogueLines, makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';
import { incoming } from './incoming.js';

interface Match {
  fit?: string;
  catalogue: string;
  entry: string;
  by: string;
  confidence: string;
  source: string;
}
interface Row {
  status: string;
  name: string | null;
  source: string | null;
  match: Match | null;
  suggestions: (Match & { adopt: string })[];
  notes: string[];
  error: { code: string; message: string; hint: string | null } | null;
}
interface AdoptJson {
  acted: boolean;
  files: Row[];
}

const suite = useSimSuite(
  (sim, served: ServedCatalogues) =>
    makeSimWorld(sim, {
      configLines: ['manage_desktop_files: false', ...catalogueLines(served, ['hub', 'am'])],
    }),
  disposeFixtureAppImages,
);
after(disposeFixtureAppImages);

function serve(): ServedCatalogues {
  return serveCatalogues(suite.sim, {
    hub: [
      { name: 'Obsidian', description: 'A knowledge base', github: 'obsidianmd/obsidian-releases' },
      { name: 'Notes', description: 'Plain notes', github: 'e2e/NotesA' },
      { name: 'Frozen', description: 'No longer maintained', github: 'e2e/Frozen' },
      { name: 'Drawio', description: 'Diagrams', github: 'jgraph/drawio-desktop' },
      // Names an unrelated repository (a stale or wrong entry): a name match alone must not take it.
      { name: 'Zettlr', description: 'Markdown editor', github: 'e2e/Unrelated' },
      { name: 'Marker', description: 'Markdown notes', github: 'e2e/Marker' },
    ],
    am: [
      { name: 'obsidian', description: 'Obsidian (AppImage).', site: 'obsidianmd/obsidian-releases' },
      { name: 'notes', description: 'Notes, another upstream.', site: 'e2e/NotesB' },
    ],
  });
}

const world = (): Promise<SimWorld> => suite.world(serve());

function release(owner: string, repo: string, version: string, files: [string, Buffer][]): void {
  const s = suite.sim;
  s.hub.setLatest(owner, repo, {
    tag: `v${version}`,
    assets: files.map(([f, body]) => ({ name: f, url: s.putAsset(`/dl/${repo}/${version}/${f}`, body) })),
  });
}

function rowOf(r: { json?: AdoptJson | undefined; stdout: string; stderr: string }): Row {
  const row = r.json?.files[0];
  assert.ok(row, r.stdout + r.stderr);
  return row;
}

const desktop = (name: string, extra: string[] = []): string =>
  ['[Desktop Entry]', 'Type=Application', `Name=${name}`, 'Exec=app', 'Icon=app', ...extra, ''].join('\n');

void describe('adopt by catalogue match', () => {
  void test('a confident match (desktop Name) is taken with --yes; the recipe follows the catalogue repository and keeps working', async () => {
    const w = await world();
    const old = await fixtureAppImage('obsidian', '1.7.7');
    release('obsidianmd', 'obsidian-releases', '1.7.7', [
      ['Obsidian-1.7.7.AppImage', old],
      ['Obsidian-1.7.7-arm64.AppImage', old],
    ]);
    const file = await incoming(w, 'Obsidian-1.7.7.AppImage', old);

    const plan = await w.run<AdoptJson>(['--json', 'adopt', '--dry-run', file]);
    assert.equal(plan.code, 0, plan.stdout + plan.stderr);
    const planned = rowOf(plan);
    assert.equal(planned.status, 'planned');
    // What ties the entry's repository to the file: its pattern selects the file's own name.
    assert.equal(planned.match?.fit, 'its asset pattern Obsidian-*.AppImage selects Obsidian-1.7.7.AppImage');
    assert.deepEqual(
      { ...planned.match, catalogue: undefined, fit: undefined },
      {
        catalogue: undefined,
        fit: undefined,
        entry: 'Obsidian',
        by: 'desktop Name',
        confidence: 'confident',
        source: 'obsidianmd/obsidian-releases',
      },
    );
    assert.match(
      planned.source ?? '',
      /^(AppImageHub|AM): (Obsidian|obsidian) → obsidianmd\/obsidian-releases, by desktop Name$/,
    );
    const human = await w.run(['adopt', '--dry-run', file]);
    assert.match(human.stdout, /→ obsidianmd\/obsidian-releases, by desktop Name/);

    // Not on a terminal and no --yes: a guess is never taken silently.
    const unasked = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(unasked.code, 1, unasked.stdout + unasked.stderr);
    assert.equal(rowOf(unasked).status, 'planned');
    assert.match(rowOf(unasked).notes.join('\n'), /--yes/);
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);

    const r = await w.run<AdoptJson>(['--json', 'adopt', file, '--yes']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(rowOf(r).status, 'adopted');
    const recipe = parse(await readFile(join(w.home.appsDir, 'obsidian', 'obsidian.yml'), 'utf8')) as {
      strategy: Record<string, string>;
    };
    assert.equal(recipe.strategy.strategy, 'forge');
    assert.match(recipe.strategy.repository ?? '', /obsidianmd\/obsidian-releases$/);
    assert.doesNotMatch(String(recipe.strategy.asset_match), /1\.7\.7/);

    const next = await fixtureAppImage('obsidian', '1.8.0');
    release('obsidianmd', 'obsidian-releases', '1.8.0', [
      ['Obsidian-1.8.0.AppImage', next],
      ['Obsidian-1.8.0-arm64.AppImage', old],
    ]);
    const check = await w.run<{ apps: { name: string; status: string }[] }>(['--json', 'check']);
    assert.ok([0, 100].includes(check.code ?? -1), check.stdout + check.stderr);
    assert.equal(check.json?.apps[0]?.status, 'update_available', check.stdout);
    const update = await w.run(['update']);
    assert.equal(update.code, 0, update.stdout + update.stderr);
    assert.deepEqual(await readFile(join(w.storageDir, 'obsidian.AppImage')), next);
  });

  void test('a confident name match whose repository ships nothing like the file is a suggestion: --yes leaves it alone', async () => {
    const w = await world();
    const unrelated = await fixtureAppImage('unrelated', '9.0');
    release('e2e', 'Unrelated', '9.0', [['Unrelated-9.0-x86_64.AppImage', unrelated]]);
    const body = await fixtureAppImage('zettlr', '3.4.1', { desktop: desktop('Zettlr') });
    const dir = join(w.home.root, 'Applications');
    await mkdir(dir, { recursive: true });
    const file = join(dir, 'Zettlr-3.4.1-x86_64.AppImage');
    await writeFile(file, body, { mode: 0o755 });

    const r = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir, '--yes']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const row = rowOf(r);
    assert.equal(row.status, 'not_adoptable', r.stdout);
    assert.equal(row.error?.code, 'ADOPT_NO_SOURCE');
    assert.equal(row.match, null);
    assert.deepEqual(
      row.suggestions.map((s) => [s.entry, s.by, s.source]),
      [['Zettlr', 'desktop Name', 'e2e/Unrelated']],
    );
    assert.match(row.error?.message ?? '', /Zettlr.*e2e\/Unrelated.*Unrelated-9\.0-x86_64\.AppImage/);
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);
    // Nothing to update, and the file is the user's as it was.
    const update = await w.run(['update']);
    assert.equal(update.code, 0, update.stdout + update.stderr);
    assert.deepEqual(await readFile(file), body);
  });

  void test('a file whose name says nothing is still a confident match when its AppStream id names the repository', async () => {
    const w = await world();
    const old = await fixtureAppImage('marker', '2.0');
    release('e2e', 'Marker', '2.0', [['Marker-2.0-x86_64.AppImage', old]]);
    const metainfo = (id: string): Record<string, string> => ({
      'usr/share/metainfo/marker.metainfo.xml': `<?xml version="1.0"?>\n<component type="desktop-application"><id>${id}</id><name>Marker</name></component>\n`,
    });
    // Gear Lever's name keeps nothing of the release's file name.
    const plain = await incoming(
      w,
      'gearlever_marker_0a1b2c.appimage',
      await fixtureAppImage('marker', '2.0', {
        desktop: desktop('Marker'),
        extraFiles: metainfo('org.example.Marker'),
      }),
    );
    const weak = await w.run<AdoptJson>(['--json', 'adopt', '--dry-run', plain]);
    assert.equal(rowOf(weak).error?.code, 'ADOPT_NO_SOURCE', weak.stdout);
    assert.deepEqual(
      rowOf(weak).suggestions.map((s) => s.source),
      ['e2e/Marker'],
    );
    const named = await incoming(
      w,
      'gearlever_marker_0a1b2c.appimage',
      await fixtureAppImage('marker', '2.0', {
        desktop: desktop('Marker'),
        extraFiles: metainfo('io.github.e2e.Marker'),
      }),
    );
    const r = await w.run<AdoptJson>(['--json', 'adopt', '--in-place', named, '--yes']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(rowOf(r).status, 'adopted');
    assert.match(r.json?.files[0]?.match?.fit ?? '', /AppStream id io\.github\.e2e\.Marker/);
  });

  void test('on a terminal the match is offered and taken on "y"', async () => {
    const w = await world();
    const body = await fixtureAppImage('obsidian', '1.7.7');
    release('obsidianmd', 'obsidian-releases', '1.7.7', [['Obsidian-1.7.7.AppImage', body]]);
    const file = await incoming(w, 'Obsidian-1.7.7.AppImage', body);
    const pty = await runCliInPty(['adopt', '--in-place', file], {
      env: w.env,
      columns: 120,
      answer: { after: /\[y\/N\]/, text: 'y\n' },
    });
    assert.equal(pty.code, 0, pty.raw);
    assert.match(pty.raw, /obsidianmd\/obsidian-releases, by desktop Name/);
    assert.ok((await readdir(w.home.appsDir)).includes('obsidian'), pty.raw);
  });

  void test('weak matches (a tie between catalogues, a file prefix only) are suggestions, never taken', async () => {
    const w = await world();
    const notes = await incoming(w, 'Notes-2.0-x86_64.AppImage', await fixtureAppImage('notes', '2.0'));
    const tie = await w.run<AdoptJson>(['--json', 'adopt', notes, '--yes']);
    assert.equal(tie.code, 1, tie.stdout + tie.stderr);
    const row = rowOf(tie);
    assert.equal(row.status, 'not_adoptable');
    assert.equal(row.error?.code, 'ADOPT_NO_SOURCE');
    assert.equal(row.match, null);
    assert.deepEqual(row.suggestions.map((s) => s.source).sort(), ['e2e/NotesA', 'e2e/NotesB']);
    for (const s of row.suggestions) {
      assert.equal(s.confidence, 'weak');
      assert.match(s.adopt, /^appimage-keeper adopt '?.*Notes-2\.0-x86_64\.AppImage'? --url e2e\/Notes[AB]$/);
    }
    const drawio = await incoming(
      w,
      'drawio-x86_64-24.7.17.AppImage',
      await fixtureAppImage('diagrams', '24.7.17', { desktop: desktop('Diagrams Editor') }),
    );
    const prefix = await w.run<AdoptJson>(['--json', 'adopt', drawio, '--yes']);
    assert.equal(prefix.code, 1, prefix.stdout + prefix.stderr);
    assert.equal(rowOf(prefix).error?.code, 'ADOPT_NO_SOURCE');
    assert.deepEqual(
      rowOf(prefix).suggestions.map((s) => [s.entry, s.by]),
      [['Drawio', 'file name']],
    );
    const human = await w.run(['adopt', drawio]);
    assert.match(human.stdout, /suggest.*adopt .*--url jgraph\/drawio-desktop/);
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);
  });

  void test('a desktop Name no catalogue lists: ADOPT_NO_SOURCE with its pasteable hint; an unreadable catalogue is a note', async () => {
    const w = await world();
    const file = await incoming(
      w,
      'Zzyzx-1.0.AppImage',
      await fixtureAppImage('zzyzx', '1.0', { desktop: desktop('Zzyzx') }),
    );
    const r = await w.run<AdoptJson>(['--json', 'adopt', file]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(rowOf(r).error?.code, 'ADOPT_NO_SOURCE');
    assert.match(rowOf(r).error?.hint ?? '', /adopt '?[^ ]*Zzyzx-1\.0\.AppImage'? --url URL/);
    assert.deepEqual(rowOf(r).suggestions, []);

    const fresh = await suite.world(serve());
    suite.sim.putAsset('/cat/feed.json', Buffer.from('<html>maintenance</html>'), {
      contentType: 'text/html',
    });
    suite.sim.fault(/^\/cat\/programs\//, { body: 'x', dropAfterBytes: 0 });
    try {
      const broken = await fresh.run<AdoptJson>(['--json', 'adopt', file]);
      assert.equal(broken.code, 1, broken.stdout + broken.stderr);
      assert.equal(rowOf(broken).error?.code, 'ADOPT_NO_SOURCE');
      assert.match(rowOf(broken).error?.message ?? '', /catalogue/i);
      assert.doesNotMatch(broken.stderr, /at .*\.js:\d+/);
    } finally {
      suite.sim.clearFaults();
    }
  });

  void test('adopt --scan shows each file’s match in the plan', async () => {
    const w = await world();
    const body = await fixtureAppImage('obsidian', '1.7.7');
    release('obsidianmd', 'obsidian-releases', '1.7.7', [['Obsidian-1.7.7.AppImage', body]]);
    const dir = join(w.home.root, 'Applications');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'Obsidian-1.7.7.AppImage'), body);
    await writeFile(join(dir, 'Notes-2.0-x86_64.AppImage'), await fixtureAppImage('notes', '2.0'));
    const human = await w.run(['adopt', '--scan', dir]);
    assert.equal(human.code, 0, human.stdout + human.stderr);
    assert.match(human.stdout, /planned\s+obsidian\s.*obsidianmd\/obsidian-releases, by desktop Name/);
    assert.match(human.stdout, /suggest.*--url e2e\/NotesA/);
    const json = await w.run<AdoptJson>(['--json', 'adopt', '--scan', dir]);
    assert.equal(json.json?.files.find((f) => f.name === 'obsidian')?.match?.by, 'desktop Name');
  });
});

void describe('archived repositories', () => {
  void test('add NAME and adopt by match refuse an archived repository, naming the catalogue entry', async () => {
    const w = await world();
    const body = await fixtureAppImage('frozen', '3.0');
    release('e2e', 'Frozen', '3.0', [['Frozen-3.0-x86_64.AppImage', body]]);
    suite.sim.hub.setArchived('e2e', 'Frozen', true);
    suite.sim.clearRequests();
    const add = await w.run<{ error: { code: string; message: string; hint: string } }>([
      '--json',
      'add',
      'Frozen',
    ]);
    assert.equal(add.code, 1, add.stdout + add.stderr);
    assert.equal(add.json?.error.code, 'CATALOGUE_ENTRY_ARCHIVED');
    assert.match(add.json?.error.message ?? '', /AppImageHub entry "Frozen".*e2e\/Frozen.*archived/);
    assert.match(add.json?.error.hint ?? '', /add \S*e2e\/Frozen/);
    const repoLookups = suite.sim.requests.filter((r) => /\/repos\/e2e\/Frozen$/i.test(r.path));
    assert.equal(repoLookups.length, 1, 'one repository request');
    const file = await incoming(w, 'Frozen-3.0-x86_64.AppImage', body);
    const adopt = await w.run<AdoptJson>(['--json', 'adopt', file, '--yes']);
    assert.equal(adopt.code, 1, adopt.stdout + adopt.stderr);
    assert.equal(rowOf(adopt).error?.code, 'CATALOGUE_ENTRY_ARCHIVED');
    assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);

    // Not archived: the same entry adds, and check/update never ask for the repository.
    suite.sim.hub.setArchived('e2e', 'Frozen', false);
    assert.equal((await w.run(['add', 'Frozen'])).code, 0);
    suite.sim.clearRequests();
    await w.run(['check']);
    assert.deepEqual(
      suite.sim.requests.filter((r) => /\/repos\/e2e\/Frozen$/i.test(r.path)),
      [],
    );
  });
  void test('an entry on a Gitea or a lab: archived is refused the same way, and adds once it is not', async () => {
    const gitea = suite.sim.url.replace('127.0.0.1', 'localhost');
    const served = serveCatalogues(
      suite.sim,
      {
        keeper: [
          { name: 'Icy', description: 'On a Gitea', repository: `${gitea}/team/icy` },
          {
            name: 'Glacier',
            description: 'On a lab',
            repository: `${suite.sim.secondUrl}/group/sub/glacier`,
          },
        ],
      },
      '/cat-forges',
    );
    const w = await makeSimWorld(suite.sim, {
      configLines: [
        'manage_desktop_files: false',
        // The second origin is a lab, as a company names its own instance in config.yml.
        `lab_release_web_url: ${suite.sim.secondUrl}`,
        `lab_release_api_url: ${suite.sim.secondUrl}/api/v4`,
        ...catalogueLines(served, ['keeper']),
      ],
    });
    try {
      const icy = await fixtureAppImage('icy', '1.0');
      const glacier = await fixtureAppImage('glacier', '2.0');
      suite.sim.gitea.setFlavor('gitea');
      suite.sim.gitea.setLatest('team', 'icy', {
        tag: 'v1.0',
        assets: [
          {
            name: 'Icy-1.0-x86_64.AppImage',
            url: suite.sim.putAsset('/dl/icy/Icy-1.0-x86_64.AppImage', icy),
          },
        ],
      });
      suite.sim.lab.setLatest('group/sub/glacier', {
        tag: 'v2.0',
        assets: [
          {
            name: 'Glacier-2.0-x86_64.AppImage',
            url: suite.sim.putAsset('/dl/glacier/Glacier-2.0-x86_64.AppImage', glacier),
          },
        ],
      });
      suite.sim.gitea.setArchived('team', 'icy', true);
      suite.sim.lab.setArchived('group/sub/glacier', true);
      for (const name of ['Icy', 'Glacier']) {
        const r = await w.run<{ error: { code: string; message: string } }>(['--json', 'add', name]);
        assert.equal(r.code, 1, r.stdout + r.stderr);
        assert.equal(r.json?.error.code, 'CATALOGUE_ENTRY_ARCHIVED', `${name}: ${r.stdout}`);
        assert.match(r.json?.error.message ?? '', new RegExp(`entry "${name}".*archived`));
      }
      assert.deepEqual(await readdir(w.home.appsDir).catch(() => []), []);
      suite.sim.gitea.setArchived('team', 'icy', false);
      suite.sim.lab.setArchived('group/sub/glacier', false);
      for (const name of ['Icy', 'Glacier']) {
        const r = await w.run(['add', name]);
        assert.equal(r.code, 0, r.stdout + r.stderr);
      }
      assert.deepEqual((await readdir(w.home.appsDir)).sort(), ['glacier', 'icy']);
    } finally {
      await w.home.cleanup();
    }
  });
});
