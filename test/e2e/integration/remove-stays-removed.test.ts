// After `remove APP` the app stays removed: `update` skips it until it is named, a second `remove`
// says it is not installed, and `--purge` forgets it entirely (recipe and state).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { exists, listDir, useIntegrationSuite } from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';

const suite = useIntegrationSuite();

void describe('remove keeps the app removed', () => {
  void test('update skips a removed app, `update APP` installs it again, a second remove says not installed', async () => {
    const w = await suite.world();
    const app = 'byebye';
    await w.recipe(app);
    await w.recipe('stays');
    publishHubRelease(suite.sim, app, '1.0', await fixtureAppImage(app, '1.0'));
    publishHubRelease(suite.sim, 'stays', '1.0', await fixtureAppImage('stays', '1.0'));
    assert.equal((await w.update()).code, 0);

    const r = await w.remove([app]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(appOf(r, app).status, 'removed');
    assert.equal(await exists(join(w.storageDir, `${app}.AppImage`)), false);
    const marked = (await w.state()).apps[app];
    assert.equal(marked?.installed, undefined);
    assert.equal(marked?.integration, undefined);
    assert.equal(typeof marked?.removedAt, 'string');

    // A later release must not bring it back through a plain `update` (the timer's).
    publishHubRelease(suite.sim, app, '2.0', await fixtureAppImage(app, '2.0'));
    const u = await w.update();
    assert.equal(u.code, 0, u.stderr);
    assert.equal(appOf(u, app).status, 'skipped');
    assert.equal(appOf(u, app).reason, `removed; run \`update ${app}\` to install it again`);
    assert.deepEqual(await listDir(w.storageDir), ['.appimage-keeper-owners', 'stays.AppImage']);
    assert.deepEqual(await listDir(join(w.storageDir, '.appimage-keeper-owners')), ['stays.AppImage.owner']);
    // A plain update does not list it, but its summary names it: a count never stands for nobody.
    const plain = await w.cli(['update']);
    assert.match(plain.stdout, new RegExp(`1 skipped \\(removed: ${app}\\)`));
    const human = await w.cli(['update', '--show-all']);
    assert.match(human.stdout, new RegExp(`skipped +${app} +removed; run \`update ${app}\``));
    // check does not report it either, unless it is named.
    const checked = await w.cli(['--json', 'check']);
    const checkApps = (checked.json as { apps: { name: string; status: string; reason?: string }[] }).apps;
    assert.deepEqual(
      checkApps.filter((a) => a.name === app).map((a) => [a.status, a.reason]),
      [['skipped', `removed; run \`update ${app}\` to install it again`]],
    );
    const named = await w.cli(['--json', 'check', app]);
    assert.equal((named.json as { apps: { status: string }[] }).apps[0]?.status, 'update_available');
    // --force lifts holds, not a removal.
    const forced = await w.update(['--force']);
    assert.equal(appOf(forced, app).status, 'skipped');

    const list = await w.cli(['--json', 'list']);
    const listed = (list.json as { apps: { name: string; removed: boolean; version: string | null }[] }).apps;
    assert.deepEqual(
      listed.filter((a) => a.name === app).map((a) => [a.removed, a.version]),
      [[true, null]],
    );
    assert.match((await w.cli(['list'])).stdout, new RegExp(`^${app} .* removed `, 'm'));

    // Removing it again: nothing to do, and said so.
    const again = await w.remove([app]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(appOf(again, app).status, 'not_installed');
    assert.deepEqual(appOf(again, app).removed, []);
    const againHuman = await w.cli(['remove', app]);
    assert.match(againHuman.stdout, new RegExp(`^not installed ${app}`, 'm'));
    assert.doesNotMatch(againHuman.stdout, /^removed/m);

    // Doctor does not call a removed app an orphan or a missing install.
    const doc = await w.cli(['--json', 'doctor']);
    const checks = (doc.json as { checks: { id: string; status: string }[] }).checks;
    assert.equal(checks.find((c) => c.id === 'installed-files')?.status, 'ok');

    // Named explicitly, it installs again and the mark is gone.
    const back = await w.update([app]);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(appOf(back, app).status, 'updated');
    assert.equal(appOf(back, app).to_version, '2.0');
    const st = (await w.state()).apps[app];
    assert.equal(st?.removedAt, undefined);
    assert.equal(st?.installed?.version, '2.0');
    assert.equal(appOf(await w.update(), app).status, 'up_to_date');
  });

  void test('remove --purge deletes the recipe and forgets the app; never installed is not installed', async () => {
    const w = await suite.world();
    await w.recipe('purged');
    await w.recipe('never');
    publishHubRelease(suite.sim, 'purged', '1.0', await fixtureAppImage('purged', '1.0'));
    assert.equal((await w.update(['purged'])).code, 0);
    assert.equal(appOf(await w.remove(['purged']), 'purged').status, 'removed');
    const p = await w.remove(['purged', '--purge']);
    assert.equal(p.code, 0, p.stderr);
    assert.equal(appOf(p, 'purged').purged_recipe, join(w.home.appsDir, 'purged'));
    assert.equal((await w.state()).apps.purged, undefined);

    const n = await w.remove(['never']);
    assert.equal(n.code, 0, n.stderr);
    assert.equal(appOf(n, 'never').status, 'not_installed');
  });

  void test('remove --orphans forgets removed apps whose recipe is gone, without calling them orphans', async () => {
    const w = await suite.world();
    await w.recipe('gone');
    publishHubRelease(suite.sim, 'gone', '1.0', await fixtureAppImage('gone', '1.0'));
    assert.equal((await w.update()).code, 0);
    assert.equal((await w.remove(['gone'])).code, 0);
    await rm(join(w.home.appsDir, 'gone'), { recursive: true });
    const doc = await w.cli(['--json', 'doctor']);
    const checks = (doc.json as { checks: { id: string; status: string }[] }).checks;
    assert.equal(checks.find((c) => c.id === 'orphans')?.status, 'ok');
    const o = await w.cli(['remove', '--orphans']);
    assert.equal(o.code, 0, o.stderr);
    assert.match(o.stdout, /no orphans found/);
    assert.equal((await w.state()).apps.gone, undefined);
  });

  void test('an app that was only checked is no orphan for doctor, as for remove --orphans', async () => {
    const w = await suite.world();
    await w.recipe('peeked');
    publishHubRelease(suite.sim, 'peeked', '1.0', await fixtureAppImage('peeked', '1.0'));
    assert.equal((await w.cli(['check'])).code, 0);
    assert.ok((await w.state()).apps.peeked, 'check recorded what it saw');
    await rm(join(w.home.appsDir, 'peeked'), { recursive: true });
    const doc = await w.cli(['--json', 'doctor']);
    const checks = (doc.json as { checks: { id: string; status: string; message: string }[] }).checks;
    const orphans = checks.find((c) => c.id === 'orphans');
    assert.equal(orphans?.status, 'ok', orphans?.message);
    const o = await w.cli(['remove', '--orphans']);
    assert.match(o.stdout, /no orphans found/);
    assert.equal((await w.state()).apps.peeked, undefined, 'its stale entry is forgotten');
  });
});
