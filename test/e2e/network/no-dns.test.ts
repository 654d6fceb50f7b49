/**
 * A route but no DNS: the CLI runs in a network namespace of its own with a default route (over lo,
 * so the "no route" rule does not fire) and, in a private mount namespace, a resolv.conf naming a
 * nameserver nobody answers for. Every lookup fails with EAI_AGAIN and no server ever answers, so
 * the run is offline: every app `offline`, exit 75, said once, state untouched. Needs the right to
 * create network and mount namespaces (root in CI).
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CLI_PATH, refuseInFastRun } from '../../helpers/run-cli.js';
import { snapshotTree } from '../../helpers/snapshot-tree.js';
import { makeTmpHome, type TmpHome } from '../../helpers/tmp-home.js';

refuseInFastRun('no-dns.test.ts');

const APPS = 200;
// The namespace's set-up: lo up, an address and a default route through a gateway that is not
// there, and a resolv.conf whose nameserver sits behind that gateway. "$@" is the CLI.
const SETUP = [
  'mount --bind "$RESOLV" /etc/resolv.conf',
  'ip link set lo up',
  'ip addr add 10.9.0.2/24 dev lo',
  'ip route add default via 10.9.0.1 dev lo',
  'exec "$@"',
].join(' && ');

function namespaceUnavailable(): string | false {
  const probe = spawnSync(
    'unshare',
    [
      '-n',
      '-m',
      'sh',
      '-c',
      'ip link set lo up && ip addr add 10.9.0.2/24 dev lo && ip route add default via 10.9.0.1 dev lo && mount --bind /etc/hosts /etc/hosts',
    ],
    { stdio: 'ignore' },
  );
  return probe.status === 0
    ? false
    : 'unshare -n -m with a default route over lo is not permitted here (needs root)';
}
const skip = namespaceUnavailable();

void describe('a run with a route but no DNS', { skip }, () => {
  let h: TmpHome;
  let env: NodeJS.ProcessEnv;
  const appState = async (): Promise<string[]> =>
    (await snapshotTree(h.root, [h.stateDir])).filter((l) => !l.includes('root-notice-shown'));

  /** Runs the built CLI in the namespace; resolves with its exit code, output and wall time. */
  function runNoDns(
    args: string[],
  ): Promise<{ code: number | null; stdout: string; stderr: string; wall: number }> {
    const started = Date.now();
    return new Promise((resolve) => {
      execFile(
        'unshare',
        ['-n', '-m', 'sh', '-c', SETUP, 'sh', process.execPath, CLI_PATH, ...args],
        { env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
          resolve({ code, stdout, stderr, wall: (Date.now() - started) / 1000 });
        },
      );
    });
  }

  before(async () => {
    h = await makeTmpHome();
    await mkdir(h.stateDir, { recursive: true });
    await h.writeConfig('notify: true\n');
    for (let i = 0; i < APPS; i++) {
      const name = `nd${i}`;
      const strategy =
        i % 4 === 0
          ? `  strategy: direct\n  url: https://downloads.example.com/${name}.AppImage\n  check_method: etag\n`
          : `  strategy: forge\n  repository: https://github.com/example/${name}\n  asset_match: "${name}-*"\n`;
      await h.writeRecipe(name, `name: ${name}\nstrategy:\n${strategy}`);
    }
    const resolv = join(h.root, 'resolv.conf');
    // One try, one second: on a kernel that drops the packets the lookup waits for the timeout.
    await writeFile(resolv, 'nameserver 10.9.0.1\noptions timeout:1 attempts:1\n');
    env = { ...h.env, RESOLV: resolv, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' };
  });
  after(() => h.cleanup());

  void test('update: every app offline, exit 75, said once, state untouched', async (t) => {
    const before = await appState();
    const json = await runNoDns(['--json', 'update']);
    assert.equal(json.code, 75, json.stdout.slice(0, 2000) + json.stderr);
    const doc = JSON.parse(json.stdout) as { apps: { status: string }[]; summary: Record<string, number> };
    assert.equal(doc.apps.length, APPS);
    assert.deepEqual([...new Set(doc.apps.map((a) => a.status))], ['offline']);
    assert.equal(doc.summary.failed, 0);
    t.diagnostic(`${APPS} apps, no DNS: ${json.wall.toFixed(2)} s wall`);

    const human = await runNoDns(['update']);
    assert.equal(human.code, 75);
    const text = human.stdout + human.stderr;
    assert.equal(text.split('no working DNS').length - 1, 1, text);
    assert.doesNotMatch(text, /failed\s+nd/);
    assert.deepEqual(await appState(), before, 'state is left as it was');
  });
});
