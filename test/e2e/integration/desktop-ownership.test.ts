// Who owns a desktop id, end to end: an image shipping the id of a system entry must not shadow it,
// and two apps shipping the same id in one run each get their own entry, which only they remove.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  desktopFileValidate,
  key,
  listDir,
  readDesktop,
  useIntegrationSuite,
  type World,
} from './harness.js';
import { fixtureAppImage } from '../../helpers/fixture-appimages.js';
import { publishHubRelease } from '../../helpers/hub-release.js';
import { appOf } from '../../helpers/json-output.js';

const suite = useIntegrationSuite();

/** A desktop entry shipped as `<id>.desktop` whatever the app is called. */
function entry(name: string, extra: string[] = []): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${name}`,
    `Exec=${name} %u`,
    `Icon=${name}`,
    'Categories=Network;',
    ...extra,
    '',
  ].join('\n');
}

async function publishWithId(app: string, version: string, id: string, extra: string[] = []): Promise<void> {
  const image = await fixtureAppImage(app, version, {
    desktop: false,
    extraFiles: { [`${id}.desktop`]: entry(app, extra) },
  });
  publishHubRelease(suite.sim, app, version, image);
}

/** `$XDG_DATA_DIRS/applications` of the world (one system data dir). */
function systemApplications(w: World): string {
  return join(w.env.XDG_DATA_DIRS ?? '', 'applications');
}

interface ListJson {
  apps: { name: string; desktop_entry: string | null; desktop_entry_ours: boolean }[];
}
interface DoctorJson {
  checks: { id: string; status: string; message: string }[];
}

void describe('desktop ids belong to one owner', () => {
  void test('an id the system provides is not shadowed: ours is appimage-keeper-<app>.desktop, and it says so', async () => {
    const w = await suite.world();
    const app = 'fox';
    const id = 'org.mozilla.firefox';
    const system = join(systemApplications(w), `${id}.desktop`);
    const systemText = entry('firefox', ['MimeType=x-scheme-handler/http;']).replace(
      'Exec=firefox %u',
      'Exec=/usr/bin/firefox %u',
    );
    await mkdir(systemApplications(w), { recursive: true });
    await writeFile(system, systemText);
    await publishWithId(app, '1.0', id, ['MimeType=x-scheme-handler/http;x-scheme-handler/https;']);
    await w.recipe(app);

    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    const o = appOf(r, app);
    assert.equal(o.status, 'updated');
    assert.equal(o.desktop?.id, `appimage-keeper-${app}`);
    assert.equal(o.desktop?.upstream_id, id);
    assert.equal(o.desktop?.fallback_reason, `${id}.desktop is provided by ${system}`);
    const ours = join(w.applicationsDir, `appimage-keeper-${app}.desktop`);
    assert.equal(o.desktop?.file, ours);
    assert.deepEqual(await listDir(w.applicationsDir), [`appimage-keeper-${app}.desktop`, 'mimeinfo.cache']);
    assert.doesNotMatch(await readFile(join(w.applicationsDir, 'mimeinfo.cache'), 'utf8'), /firefox/);
    assert.equal(await readFile(system, 'utf8'), systemText);
    assert.equal(key(await readDesktop(ours), 'Desktop Entry', 'X-AppImage-Keeper-App'), app);
    const v = await desktopFileValidate(ours);
    assert.equal(v.code, 0, v.output);

    // Human output names the choice; --verbose names the upstream one when it is used.
    const human = await w.cli(['update', '--force']);
    assert.match(
      human.stdout,
      new RegExp(
        `desktop entry appimage-keeper-${app}\\.desktop \\(not ${id}: ${id}\\.desktop is provided by `,
      ),
    );
    const plain = 'plain';
    await publishWithId(plain, '1.0', 'org.example.Plain');
    await w.recipe(plain);
    const verbose = await w.cli(['--verbose', 'update', plain]);
    assert.equal(verbose.code, 0, verbose.stderr);
    assert.match(verbose.stdout, /desktop entry org\.example\.Plain\.desktop \(the AppImage's own id\)/);
  });

  void test('two apps shipping the same id in one run: one entry each, each removes only its own', async () => {
    const w = await suite.world();
    const apps = ['tool', 'tool-beta'];
    for (const app of apps) {
      await publishWithId(app, '1.0', 'tool');
      await w.recipe(app);
    }
    const r = await w.update();
    assert.equal(r.code, 0, r.stderr);
    const st = await w.state();
    const files = apps.map((a) => st.apps[a]?.integration?.desktopFile);
    assert.equal(new Set(files).size, 2, `distinct entries: ${files.join(', ')}`);
    assert.deepEqual(await listDir(w.applicationsDir), [
      ...apps
        .map((a) => st.apps[a]?.integration?.desktopId ?? '')
        .sort()
        .map((id) => `${id}.desktop`),
    ]);
    for (const app of apps) {
      const file = st.apps[app]?.integration?.desktopFile ?? '';
      assert.equal(key(await readDesktop(file), 'Desktop Entry', 'X-AppImage-Keeper-App'), app);
      assert.equal(appOf(r, app).desktop?.file, file);
    }
    const list = (await w.cli(['--json', 'list'])).json as ListJson;
    assert.deepEqual(
      list.apps.map((a) => [a.name, a.desktop_entry_ours]),
      apps.map((a) => [a, true]),
    );

    // Removing one leaves the other's entry and icon in place.
    const [first, second] = apps as [string, string];
    const secondFile = st.apps[second]?.integration?.desktopFile ?? '';
    const secondIcons = st.apps[second]?.integration?.icons ?? [];
    const rm = await w.remove([first]);
    assert.equal(rm.code, 0, rm.stderr);
    assert.deepEqual(await listDir(w.applicationsDir), [secondFile.split('/').pop()]);
    assert.equal(key(await readDesktop(secondFile), 'Desktop Entry', 'X-AppImage-Keeper-App'), second);
    for (const icon of secondIcons) assert.ok((await readFile(icon)).length > 0, icon);
  });

  void test('list and doctor check that a recorded entry is still the app’s own; remove leaves another app’s', async () => {
    const w = await suite.world();
    const apps = ['chan', 'chan-beta'];
    for (const app of apps) {
      await publishWithId(app, '1.0', 'chan');
      await w.recipe(app);
    }
    assert.equal((await w.update()).code, 0);
    // State as the defect left it: both apps record the same file, which carries chan-beta's mark.
    const stateFile = join(w.home.stateDir, 'state.json');
    const state = JSON.parse(await readFile(stateFile, 'utf8')) as {
      apps: Record<string, { integration: { desktopId: string; desktopFile: string } }>;
    };
    const shared = state.apps['chan-beta']?.integration;
    assert.ok(shared);
    const chan = state.apps.chan;
    assert.ok(chan);
    await writeFile(join(w.applicationsDir, `${chan.integration.desktopId}.desktop`), '');
    chan.integration = { ...chan.integration, desktopId: shared.desktopId, desktopFile: shared.desktopFile };
    await writeFile(stateFile, JSON.stringify(state));

    const list = (await w.cli(['--json', 'list'])).json as ListJson;
    assert.deepEqual(
      list.apps.map((a) => [a.name, a.desktop_entry_ours]),
      [
        ['chan', false],
        ['chan-beta', true],
      ],
    );
    assert.match((await w.cli(['list'])).stdout, /^chan .* not ours /m);
    const doctor = (await w.cli(['--json', 'doctor'])).json as DoctorJson;
    const check = doctor.checks.find((c) => c.id === 'desktop-entries');
    assert.equal(check?.status, 'fail');
    assert.match(check?.message ?? '', new RegExp(`chan: ${shared.desktopFile} belongs to app chan-beta`));

    const rm = await w.remove(['chan']);
    assert.equal(rm.code, 0, rm.stderr);
    assert.ok(appOf(rm, 'chan').skipped.includes(shared.desktopFile));
    assert.equal(
      key(await readDesktop(shared.desktopFile), 'Desktop Entry', 'X-AppImage-Keeper-App'),
      'chan-beta',
    );
  });
});
