/**
 * What the timer runs when Node comes from a version manager: the unit must point at a path that
 * survives switching or removing that Node version, and `doctor` must notice when it no longer runs.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../helpers/run-cli.js';
import { fakeProgram } from './fake-program.js';
import { makeNvmHome, type NvmHome } from './nvm-home.js';

interface InstallJson {
  exec_start: string[];
  program: string;
  warnings: string[];
}

const homes: NvmHome[] = [];
after(() => Promise.all(homes.map((n) => n.h.cleanup())));

/** A laid-out home with a fake systemctl and a session bus, so install runs its systemctl steps. */
async function home(stableLauncher: boolean): Promise<{ n: NvmHome; env: NodeJS.ProcessEnv }> {
  const n = await makeNvmHome({ stableLauncher });
  homes.push(n);
  const fakeBin = join(n.h.root, 'fake-bin');
  await fakeProgram(fakeBin, 'systemctl');
  const env = {
    ...n.h.env,
    PATH: [n.nvmBin, n.localBin, fakeBin, n.h.env.PATH ?? ''].join(':'),
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
  };
  return { n, env };
}

/** `schedule install` run the way nvm runs it: its node, its global copy of the CLI. */
function installWithNvmNode(n: NvmHome, env: NodeJS.ProcessEnv, json = true) {
  return runCli<InstallJson>([n.nvmScript, ...(json ? ['--json'] : []), 'schedule', 'install'], {
    program: n.nvmNode,
    env,
  });
}

void describe('schedule install under a Node version manager', () => {
  void test('the unit runs the stable launcher on PATH, not the versioned node', async () => {
    const { n, env } = await home(true);
    const r = await installWithNvmNode(n, env);
    assert.equal(r.code, 0, r.stderr);
    const launcher = join(n.localBin, 'appimage-keeper');
    assert.deepEqual(r.json?.exec_start, [launcher, '--quiet', 'update']);
    const service = await readFile(join(n.unitDir, 'appimage-keeper.service'), 'utf8');
    assert.ok(!service.includes('.nvm'), service);
    assert.match(service, new RegExp(`^ExecStart="${launcher}" "--quiet" "update"$`, 'm'));
  });
});
