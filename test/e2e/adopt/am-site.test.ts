// `add NAME` from the sim's AM catalogue, in-process: a script's SITE is the repository bash would
// install from. A SITE before the real one in a here-document, a comment or a string is data; one
// in an uncalled function, `if false`, a case, a subshell, or a second SITE that differs, makes
// the entry unusable, named with what was found, and nothing is written or fetched from it.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { serveCatalogues, startSim, type AmApp, type Sim } from '../../../sim/index.js';
import { runInProcess } from '../../helpers/run-in-process.js';
import { makeSimHome, type SimHome } from '../../helpers/sim-home.js';

interface ErrorJson {
  error: { code: string; message: string; hint?: string | null };
}

const API = 'version=$(curl -Ls https://api.github.com/repos/$SITE/releases | grep -i appimage | head -1)\n';
const REAL = 'SITE="e2e/Real"\n';

const am = (name: string, script: string): AmApp => ({ name, description: `${name}, a test app`, script });

// Each script sets the real SITE after (or before) another one.
const accepted: AmApp[] = [
  am('heredoc', `APP=heredoc\ncat <<-'EOF' > ./AM-updater\n\tSITE="e2e/Evil"\n\tEOF\n${REAL}${API}`),
  am('comment', `# SITE="e2e/Evil"\necho "\nSITE=e2e/Evil\n"\n${REAL}${API}`),
  am('twice', `${REAL}echo installing\n${REAL}${API}`),
];
const refused: [AmApp, RegExp][] = [
  [
    am('uncalled', `unused() {\n  SITE="e2e/Evil"\n}\n${REAL}${API}`),
    /sets SITE inside a function body \(from line 1\) \(line 2\)/,
  ],
  [am('iffalse', `if false; then\n  SITE="e2e/Evil"\nfi\n${REAL}${API}`), /inside an if block/],
  [
    am('branch', `${REAL}case "$1" in\n  --beta) SITE="e2e/Evil" ;;\nesac\n${API}`),
    /inside a case \(from line 2\) \(line 3\)/,
  ],
  [am('subshell', `( SITE="e2e/Evil" )\n${REAL}${API}`), /inside a subshell/],
  [
    am('differ', `SITE="e2e/Evil"\n${REAL}${API}`),
    /sets SITE twice to different values \("e2e\/Evil" on line 1, "e2e\/Real" on line 2\)/,
  ],
];

let sim: Sim;
let world: SimHome;

before(async () => {
  sim = await startSim();
  const served = serveCatalogues(sim, { am: [...accepted, ...refused.map(([app]) => app)] });
  sim.hub.setLatest('e2e', 'Real', {
    tag: 'v1.0.0',
    assets: [{ name: 'Real-1.0.0.AppImage', url: sim.putAsset('/dl/Real-1.0.0.AppImage', Buffer.from('r')) }],
  });
  world = await makeSimHome(sim, [
    'manage_desktop_files: false',
    'catalogues:',
    `  - { url: "${served.am}", format: am }`,
  ]);
});
after(async () => {
  await world.home.cleanup();
  await sim.stop();
});

void describe('add NAME reads an AM script as bash would', () => {
  for (const app of accepted)
    void test(`${app.name}: the recipe follows the top-level SITE`, async () => {
      const r = await runInProcess(['--json', 'add', app.name], { env: world.env });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const recipe = parse(await readFile(join(world.home.appsDir, app.name, `${app.name}.yml`), 'utf8')) as {
        strategy: { repository: string };
      };
      assert.equal(recipe.strategy.repository, `${sim.url}/e2e/Real`);
    });

  for (const [app, where] of refused)
    void test(`${app.name}: refused with the entry, what was found and the next step; nothing written`, async () => {
      sim.clearRequests();
      const r = await runInProcess<ErrorJson>(['--json', 'add', app.name], { env: world.env });
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(r.json?.error.code, 'CATALOGUE_ENTRY_UNUSABLE');
      assert.match(
        r.json?.error.message ?? '',
        new RegExp(`^AM entry "${app.name}" has no usable source: its script `),
      );
      assert.match(r.json?.error.message ?? '', where);
      assert.match(
        r.json?.error.hint ?? '',
        new RegExp(
          `^read http://.*/programs/x86_64/${app.name} to see which repository it installs from, then: appimage-keeper add OWNER/REPO --name ${app.name}$`,
        ),
      );
      assert.ok(
        !sim.requests.some((q) => /evil|Real/i.test(q.path)),
        'no forge request for a refused script',
      );
      assert.ok(
        !(await readdir(world.home.appsDir).catch(() => [] as string[])).includes(app.name),
        'no recipe written',
      );
      const human = await runInProcess(['add', app.name], { env: world.env });
      assert.match(human.stderr, where);
    });
});
