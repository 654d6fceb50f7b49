// `list` and `doctor` agree on a symlink whose target is gone: it is not `yes`.
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { directRecipe } from '../config/workspace-fixture.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { installedRecord, writeStateFile } from '../helpers/state-file.js';
import { makeTmpHome } from '../helpers/tmp-home.js';

void describe('list: symlinks', () => {
  const homes: { cleanup(): Promise<void> }[] = [];
  after(async () => Promise.all(homes.map((h) => h.cleanup())));

  void test('a dangling symlink shows as dangling (human) and not present (JSON), as doctor fails it', async () => {
    const h = await makeTmpHome();
    homes.push(h);
    await h.writeRecipe('app', directRecipe('app'));
    const bin = join(h.root, 'bin');
    await mkdir(bin, { recursive: true });
    const ok = join(h.root, 'ok.AppImage');
    await writeFile(ok, 'x');
    const goneLink = join(bin, 'app');
    await symlink(join(h.root, 'gone.AppImage'), goneLink);
    await writeStateFile(h.stateDir, {
      app: {
        strategy: 'direct',
        installed: installedRecord(ok, '1', { url: 'https://127.0.0.1/app.AppImage' }),
        symlink: goneLink,
      },
    });
    const human = await runInProcess(['list'], { env: h.env });
    assert.equal(human.code, 0, human.stderr);
    const row = human.stdout.split('\n').find((l) => l.startsWith('app '));
    assert.ok(row, human.stdout);
    assert.match(row, / dangling /);
    assert.doesNotMatch(row, / yes /);
    const json = await runInProcess<{ apps: { symlink_present: boolean; symlink_dangling: boolean }[] }>(
      ['--json', 'list'],
      { env: h.env },
    );
    assert.equal(json.json?.apps[0]?.symlink_present, false);
    assert.equal(json.json?.apps[0]?.symlink_dangling, true);
    const doctor = await runInProcess(['doctor'], { env: h.env });
    assert.match(doctor.stdout, /^FAIL {2}symlinks/m);
  });
});
