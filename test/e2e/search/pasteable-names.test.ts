// Catalogue names are free text from whoever submits an entry. Every command we print with one in
// it (search's "add one with", add NAME's candidates and hints) is pasted into a real /bin/sh here:
// it must run as exactly one `add` of exactly that entry, whatever the name holds.
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { serveCatalogues, type ServedCatalogues } from '../../../sim/index.js';
import { runPasted } from '../../helpers/run-pasted.js';
import { useSimSuite } from '../../helpers/sim-suite.js';
import { catalogueLines, makeSimWorld, type SimWorld } from '../../helpers/sim-world.js';

interface Hostile {
  /** The entry's name as the catalogue writes it. */
  name: string;
  /** The only description holding this word: `search WORD` finds this entry alone. */
  word: string;
  repo: string;
}

// Files a name's shell syntax would create if the shell ran it instead of passing it as one word.
const CANARIES = ['pwned-and', 'pwned-subst', 'pwned-tick', 'pwned-pipe', 'pwned-semi', 'pwned-amp'];

const HOSTILE: Hostile[] = [
  { name: 'Foo && touch pwned-and', word: 'qchain', repo: 'Chain' },
  { name: 'Bar $(touch pwned-subst)', word: 'qsubst', repo: 'Subst' },
  { name: 'Tick `touch pwned-tick`', word: 'qtick', repo: 'Tick' },
  { name: 'Pipe | tee pwned-pipe', word: 'qpipe', repo: 'Pipe' },
  { name: "It's; touch pwned-semi", word: 'qquote', repo: 'Quote' },
  { name: '-rf', word: 'qdash', repo: 'Dash' },
  { name: '--config-dir=evil', word: 'qflag', repo: 'Flag' },
  { name: 'Visual Studio Code', word: 'qspace', repo: 'Code' },
  { name: 'Glob * ?', word: 'qglob', repo: 'Glob' },
  // Nothing of it makes an app name: the release asset names the app, as add URL does.
  { name: '网易云音乐', word: 'qcjk', repo: 'Cjk' },
  // Control characters and invisible ones cannot be pasted as shown: the repository is offered.
  { name: 'Ctl\u001b]0;owned\u0007', word: 'qctl', repo: 'Ctl' },
  { name: 'Obsi\u200bdian', word: 'qzero', repo: 'ZeroWidth' },
  { name: '\u202eedoC', word: 'qbidi', repo: 'Bidi' },
  // A look-alike (Cyrillic О) is its own entry: the command adds it, never the real Obsidian.
  { name: 'Оbsidian', word: 'qlook', repo: 'Impostor' },
];

const suite = useSimSuite((sim, served: ServedCatalogues) =>
  makeSimWorld(sim, {
    configLines: ['manage_desktop_files: false', ...catalogueLines(served, ['hub', 'keeper'])],
  }),
);

function serve(): ServedCatalogues {
  const s = suite.sim;
  for (const h of [...HOSTILE, { repo: 'Obsidian' }, { repo: 'Dup' }]) {
    const file = `${h.repo}-1.0-x86_64.AppImage`;
    s.hub.setLatest('e2e', h.repo, {
      tag: 'v1.0',
      assets: [{ name: file, url: s.putAsset(`/dl/${h.repo}/${file}`, Buffer.from(file)) }],
    });
  }
  s.putAsset('/files/dup.AppImage', Buffer.from('dup'));
  return serveCatalogues(s, {
    hub: [
      ...HOSTILE.map((h) => ({ name: h.name, description: `An app (${h.word})`, github: `e2e/${h.repo}` })),
      { name: 'Obsidian', description: 'The real one (qreal)', github: 'e2e/Obsidian' },
      // A download URL is free text too: `&` would background the command and run the rest.
      {
        name: 'Dup',
        description: 'By download',
        download: `${s.url}/files/dup.AppImage?a=1&touch\${IFS}pwned-amp`,
      },
    ],
    keeper: [{ name: 'Dup', description: 'By repository', repository: 'e2e/Dup' }],
  });
}

const world = (): Promise<SimWorld> => suite.world(serve());

async function recipes(
  w: SimWorld,
): Promise<{ file: string; text: string; value: Record<string, unknown> }[]> {
  const names = await readdir(w.home.appsDir).catch(() => []);
  return Promise.all(
    names.map(async (n) => {
      const file = join(w.home.appsDir, n, `${n}.yml`);
      const text = await readFile(file, 'utf8');
      return { file, text, value: parse(text) as Record<string, unknown> };
    }),
  );
}

async function assertNoCanary(w: SimWorld): Promise<void> {
  const left = await readdir(w.home.root);
  assert.deepEqual(
    left.filter((f) => CANARIES.includes(f)),
    [],
    'the shell ran part of a catalogue text as a command',
  );
}

void describe('pasteable catalogue names', () => {
  void test('search prints an add command for each hostile name that a shell runs as that one entry', async () => {
    const w = await world();
    for (const h of HOSTILE) {
      const r = await w.run(['search', h.word]);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const line = /^add one with: (appimage-keeper add .*)$/m.exec(r.stdout)?.[1];
      assert.ok(line, `no add command for ${JSON.stringify(h.name)}:\n${r.stdout}`);
      const pasted = await runPasted(line, w.env, w.home.root);
      assert.equal(pasted.code, 0, `${JSON.stringify(h.name)}: ${line}\n${pasted.stdout}${pasted.stderr}`);
      await assertNoCanary(w);
      const added = (await recipes(w)).filter((x) =>
        String((x.value.strategy as { repository?: string }).repository).endsWith(`/e2e/${h.repo}`),
      );
      assert.equal(added.length, 1, `${JSON.stringify(h.name)} (${line}) added no recipe for e2e/${h.repo}`);
    }
    // The look-alike's command added the impostor's repository only.
    const all = await recipes(w);
    assert.equal(all.length, HOSTILE.length);
    assert.ok(
      !all.some((x) =>
        /e2e\/Obsidian$/.test(String((x.value.strategy as { repository?: string }).repository)),
      ),
    );
  });

  void test('add NAME: each candidate of an ambiguous name, and the no-match hint, run as printed', async () => {
    const w = await world();
    const r = await w.run<{
      error: { code: string; details: { candidates: { add: string; source: string }[] } };
    }>(['--json', 'add', 'Dup']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.json?.error.code, 'ADD_NAME_AMBIGUOUS');
    const candidates = r.json?.error.details.candidates ?? [];
    assert.equal(candidates.length, 2);
    const urls: string[] = [];
    for (const c of candidates) {
      const pasted = await runPasted(c.add, w.env, w.home.root);
      assert.equal(pasted.code, 0, `${c.add}\n${pasted.stdout}${pasted.stderr}`);
      for (const x of await recipes(w)) {
        const s = x.value.strategy as { url?: string; repository?: string };
        urls.push(String(s.url ?? s.repository));
      }
      await rm(w.home.appsDir, { recursive: true });
    }
    await assertNoCanary(w);
    assert.equal(urls.length, 2, urls.join(' '));
    assert.ok(urls.includes(`${suite.sim.url}/files/dup.AppImage?a=1&touch\${IFS}pwned-amp`), urls.join(' '));
    assert.ok(
      urls.some((u) => u.endsWith('/e2e/Dup')),
      urls.join(' '),
    );

    // A name given after `--` is looked up as typed; the hint's search command runs as printed too.
    const none = await w.run<{ error: { code: string; hint: string } }>([
      '--json',
      'add',
      '--',
      '-x; touch pwned-semi',
    ]);
    assert.equal(none.code, 2, none.stdout + none.stderr);
    assert.equal(none.json?.error.code, 'CATALOGUE_NO_MATCH');
    const search = /(appimage-keeper search .*?)(?:\)|, or|$)/.exec(none.json?.error.hint ?? '')?.[1];
    assert.ok(search, none.json?.error.hint);
    const pasted = await runPasted(search, w.env, w.home.root);
    assert.equal(pasted.code, 1, `${search}\n${pasted.stdout}${pasted.stderr}`);
    assert.match(pasted.stdout, /no app matches/);
    await assertNoCanary(w);
  });
});
