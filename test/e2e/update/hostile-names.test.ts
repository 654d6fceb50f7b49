// An app's name reaches the file system only through the one file-name rule (appFileName). The
// audit's case: `name: ../../../../tmp/victim/v` passed validate, and update wrote and then deleted
// /tmp/victim/v.json through the install-intent path. Here hostile names run through the real CLI
// (validate, update twice, rollback, remove) against the sim, and every file outside the tool's
// folders (a victim folder beside them, the config dir) must be exactly as it was.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { snapshotTree } from '../../helpers/snapshot-tree.js';
import { publish, useUpdateSuite } from './harness.js';

interface ValidateApp {
  name: string;
  file: string;
  ok: boolean;
  error?: { code: string; message: string; issues?: { line: number; col: number; message: string }[] };
}

// [recipe label (its folder and sim repository), name, the validate error it gets or null].
const NAMES: [string, string, RegExp | null][] = [
  ['trav', '../../../victim/v', /name: contains "\/"/],
  ['schema', '../../../config/appimage-keeper/config.schema', /name: contains "\/"/],
  ['cache', '../cache', /name: contains "\/"/],
  ['dots', '..', /name: "\.\." is not an app name/],
  ['slash', 'a/b', /name: contains "\/"/],
  ['ctl', 'bell\u0007\u001b[2Jx', /control character/],
  ['long', 'n'.repeat(300), /longer than 100 bytes/],
  ['odd', '..odd name', null],
  ['tool', 'config.schema.json', null],
  ['folda', 'Fold App', /RECIPE_DUPLICATE|foldb/],
  ['foldb', 'fold_app', /RECIPE_DUPLICATE|folda/],
];

void describe('hostile app names', () => {
  const suite = useUpdateSuite();

  void test('validate refuses path-like names at their position; update, rollback and remove touch nothing outside our folders', async () => {
    const w = await suite.world();
    const root = w.home.root;
    const victim = join(root, 'victim');
    await mkdir(victim);
    await writeFile(join(victim, 'v.json'), 'precious\n');
    await writeFile(join(victim, 'other.txt'), 'untouched\n');
    await mkdir(w.home.configDir, { recursive: true });
    await writeFile(join(w.home.configDir, 'config.schema.json'), '{"mine":true}\n');
    for (const [label, name] of NAMES) {
      await publish(suite.sim, label, '1.0');
      await w.recipe(
        label,
        [
          `name: ${JSON.stringify(name)}`,
          'strategy:',
          '  strategy: forge',
          `  repository: ${suite.sim.url}/e2e/${label}`,
          `  asset_match: "${label}-*"`,
          '',
        ].join('\n'),
      );
    }
    // What only the tool may change: its state, cache, storage, symlink and desktop folders.
    const ours = [
      w.home.stateDir,
      w.storageDir,
      w.symlinkDir,
      join(w.home.dataHome, 'applications'),
      join(w.home.dataHome, 'icons'),
      join(root, 'cache', 'appimage-keeper'),
    ];
    const mine = ours.map((d) => relative(root, d));
    const outside = async (): Promise<string[]> =>
      (await snapshotTree(root, [root])).filter((line) => {
        const rel = /^(?:dir {2}|file |link )(\S*)/.exec(line)?.[1] ?? '';
        return !mine.some((d) => rel === d || rel.startsWith(`${d}/`));
      });
    const before = await outside();

    const validate = await w.cli(['--json', 'validate']);
    const first = await w.update();
    for (const [label] of NAMES) await publish(suite.sim, label, '2.0');
    const second = await w.update();
    const rollbacks = [
      await w.cli(['--json', 'rollback', '..odd name']),
      await w.cli(['--json', 'rollback', 'config.schema.json']),
    ];
    const remove = await w.cli(['--json', 'remove', '..odd name', 'config.schema.json']);

    assert.deepEqual(await outside(), before, 'nothing outside our folders was created, changed or deleted');
    assert.equal(await readFile(join(victim, 'v.json'), 'utf8'), 'precious\n');

    assert.equal(validate.code, 1, validate.stdout);
    const apps = (validate.json as { apps: ValidateApp[] }).apps;
    for (const [label, name, error] of NAMES) {
      const app = apps.find((a) => a.file.includes(`/apps/${label}/`));
      assert.ok(app, `validate lists ${label}`);
      if (error === null) {
        assert.equal(app.ok, true, `${label}: ${app.error?.message}`);
        continue;
      }
      assert.equal(app.ok, false, `${label} (${JSON.stringify(name)}) must be refused`);
      const text = `${app.error?.code} ${app.error?.message}`;
      assert.match(text, error, label);
      if (label.startsWith('fold')) continue;
      // Positioned as every recipe error: file:line:col of the name's value.
      const issue = app.error?.issues?.[0];
      assert.equal(issue?.line, 1, `${label}: ${text}`);
      assert.ok(app.error?.message.includes(`${app.file}:1:`), app.error?.message);
    }
    const fold = apps.filter((a) => /\/apps\/fold[ab]\//.test(a.file));
    assert.ok(fold[0]?.error?.message.includes(fold[1]?.file ?? '?'), 'each fold names the other file');
    assert.ok(fold[1]?.error?.message.includes(fold[0]?.file ?? '?'), 'each fold names the other file');

    // The odd but legal names were installed under their safe file names, inside storage_dir.
    const done = (r: typeof first): string[] =>
      (r.json?.apps ?? [])
        .filter((a) => a.status === 'updated')
        .map((a) => a.name)
        .sort();
    assert.deepEqual(done(first), ['..odd name', 'config.schema.json'], first.stdout);
    assert.deepEqual(done(second), ['..odd name', 'config.schema.json'], second.stdout);
    for (const r of rollbacks) assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(remove.code, 0, remove.stdout + remove.stderr);
    const pending = await readdir(join(w.home.stateDir, 'pending')).catch(() => []);
    assert.deepEqual(pending, [], 'no intent is left behind');
    assert.deepEqual(
      // root-notice-shown: root without --system was told once (src/cli/system-mode.ts).
      (await readdir(w.home.stateDir)).filter(
        (n) => !['state.json', 'cache.json', 'pending', 'root-notice-shown'].includes(n),
      ),
      [],
      'the state folder holds only our files',
    );
  });
});
