/**
 * No network at all: the CLI runs in a network namespace of its own (`unshare -n`: no interface up,
 * not even lo, no route, no DNS). Every app is `offline`, the run says so once, exits 75, sends no
 * notification and leaves state as it was. Needs the right to create a namespace (root in CI).
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_PATH, refuseInFastRun } from '../../helpers/run-cli.js';
import { snapshotTree } from '../../helpers/snapshot-tree.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';
import { fakeProgram } from '../../system/fake-program.js';

refuseInFastRun('offline.test.ts');

const APPS = 200;
const probe = spawnSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
const skip = probe.status === 0 ? false : 'unshare -n is not permitted here (needs root or user namespaces)';

/** Runs the built CLI with no network; resolves with its exit code and output. */
function runOffline(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'unshare',
      ['-n', process.execPath, CLI_PATH, ...args],
      { env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

void describe('a run with no network', { skip }, () => {
  let h: TmpHome;
  // The state folder without root-notice-shown, which only records that root was told once about
  // --system (src/cli/system-mode.ts): it is no state of the apps.
  const appState = async (): Promise<string[]> =>
    (await snapshotTree(h.root, [h.stateDir])).filter((l) => !l.includes('root-notice-shown'));
  let env: NodeJS.ProcessEnv;
  let notifications: () => Promise<string[][]>;
  before(async () => {
    h = await makeTmpHome();
    // The lock lives in the state folder: the folder itself may be made, nothing in it may change.
    await mkdir(h.stateDir, { recursive: true });
    await h.writeConfig('notify: true\n');
    for (let i = 0; i < APPS; i++) {
      const name = `off${i}`;
      // Hub apps (their API host does not resolve) and direct downloads (nor does theirs).
      const strategy =
        i % 4 === 0
          ? `  strategy: direct\n  url: https://downloads.example.com/${name}.AppImage\n  check_method: etag\n`
          : `  strategy: forge\n  repository: https://github.com/example/${name}\n  asset_match: "${name}-*"\n`;
      await h.writeRecipe(name, `name: ${name}\nstrategy:\n${strategy}`);
    }
    const bin = join(h.root, 'bin');
    notifications = (await fakeProgram(bin, 'notify-send')).calls;
    env = {
      ...h.env,
      PATH: `${bin}:${h.env.PATH ?? ''}`,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    };
  });
  after(() => h.cleanup());

  void test('update: every app offline, exit 75, said once, state and notifications untouched', async () => {
    const before = await appState();
    const json = await runOffline(['--json', 'update'], env);
    assert.equal(json.code, 75, json.stdout + json.stderr);
    const doc = JSON.parse(json.stdout) as {
      apps: { status: string; error: unknown }[];
      summary: Record<string, number>;
    };
    assert.equal(doc.apps.length, APPS);
    assert.deepEqual([...new Set(doc.apps.map((a) => a.status))], ['offline']);
    assert.equal(doc.summary.offline, APPS);
    assert.equal(doc.summary.failed, 0);

    const human = await runOffline(['update'], env);
    assert.equal(human.code, 75);
    const text = human.stdout + human.stderr;
    assert.equal(text.split('no route to the internet').length - 1, 1, text);
    assert.doesNotMatch(text, /failed\s+off/);

    assert.deepEqual(await notifications(), []);
    const after = await appState();
    assert.deepEqual(after, before, 'state is left as it was');
  });

  void test('check: the same, exit 75', async () => {
    const before = await appState();
    const r = await runOffline(['--json', 'check'], env);
    assert.equal(r.code, 75, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout) as { apps: { status: string }[] };
    assert.deepEqual([...new Set(doc.apps.map((a) => a.status))], ['offline']);
    const after = await appState();
    assert.deepEqual(after, before);
  });
});
