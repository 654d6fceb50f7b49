// A state folder on a full file system: the error must name the file that could not be written and
// its folder, with a hint to free space. The folder is a real 64 KiB tmpfs, filled up, mounted in a
// private mount namespace (`unshare -m`), so nothing outside the test sees it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { StateStore } from '../../src/state/store.js';
import { CLI_PATH } from '../helpers/run-cli.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';

const NOW = new Date('2026-03-04T05:06:07.089Z');

/** Why a private tmpfs cannot be mounted here, or undefined when it can. */
function mountUnavailable(): string | undefined {
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=16k tmpfs /mnt'], {
    encoding: 'utf8',
  });
  if (probe.error) return `unshare is not available (${probe.error.message})`;
  return probe.status === 0 ? undefined : `unshare -m / mount is not permitted: ${probe.stderr.trim()}`;
}
const skip = mountUnavailable();

let h: TmpHome;
let prepared: string;
before(async () => {
  h = await makeTmpHome();
  await h.writeRecipe(
    'tool',
    'name: tool\nstrategy:\n  strategy: direct\n  url: https://dl.test/tool.AppImage\n  check_method: etag\n',
  );
  // A held app, so that `unhold` (offline) has state to save.
  prepared = join(h.root, 'prepared-state');
  const store = await StateStore.load(join(prepared, 'appimage-keeper'), NOW, () => undefined);
  store.updateApp('tool', 'direct', (cur) => ({
    ...cur,
    installed: {
      version: '1.0.0',
      identity: 'etag:"1"',
      file: join(h.home, 'Applications', 'tool.AppImage'),
      url: 'https://dl.test/tool.AppImage',
      size: 1,
      sha256: 'ab'.repeat(32),
      installedAt: NOW.toISOString(),
    },
    hold: true,
  }));
  await store.save();
});
after(async () => {
  await h.cleanup();
});

/**
 * Runs `unhold tool --json` with `$XDG_STATE_HOME` a full 64 KiB tmpfs holding the prepared state,
 * leaving `freePages` 4 KiB pages free; returns the error and what state.json holds afterwards.
 */
function unholdOnFullDisk(freePages: number): {
  error: { code: string; message: string; hint?: string };
  state: string;
  code: number | null;
} {
  const stateHome = join(h.root, 'state');
  const script = [
    'set -e',
    `mount -t tmpfs -o size=64k tmpfs "$XDG_STATE_HOME"`,
    `cp -r "${prepared}/appimage-keeper" "$XDG_STATE_HOME/"`,
    // Fill it to the last page, then give back what the case wants free.
    `dd if=/dev/zero of="$XDG_STATE_HOME/filler" bs=4096 2>/dev/null || true`,
    `truncate -s -${freePages * 4096} "$XDG_STATE_HOME/filler"`,
    'set +e',
    `"${process.execPath}" "${CLI_PATH}" --json unhold tool`,
    'echo "exit=$?" >&2',
    `cat "$XDG_STATE_HOME/appimage-keeper/state.json" >&2`,
  ].join('\n');
  const run = spawnSync('unshare', ['-m', 'sh', '-c', script], {
    env: { ...h.env, XDG_STATE_HOME: stateHome },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const exit = /exit=(\d+)/.exec(run.stderr);
  const parsed = JSON.parse(run.stdout) as { error: { code: string; message: string; hint?: string } };
  return {
    error: parsed.error,
    state: run.stderr.slice(run.stderr.indexOf('{')),
    code: exit ? Number(exit[1]) : null,
  };
}

void describe('a full state folder', { skip }, () => {
  void test('saving state: the error names state.json and its folder, state.json is unchanged', async () => {
    const before = await readFile(join(prepared, 'appimage-keeper', 'state.json'), 'utf8');
    // One page free: the lock (a few bytes) fits, state.json's temp copy does not.
    const r = unholdOnFullDisk(1);
    assert.equal(r.code, 1);
    assert.equal(r.error.code, 'SYSTEM_ENOSPC');
    const dir = join(h.root, 'state', 'appimage-keeper');
    assert.ok(r.error.message.includes(join(dir, 'state.json')), r.error.message);
    assert.match(r.error.message, /no space left/);
    assert.ok(r.error.hint?.includes(dir), r.error.hint);
    assert.match(r.error.hint ?? '', /free/);
    assert.equal(r.state.trim(), before.trim(), 'state.json is intact');
  });

  void test('taking the lock: the error names the lock file and its folder', () => {
    const r = unholdOnFullDisk(0);
    assert.equal(r.code, 1);
    assert.equal(r.error.code, 'SYSTEM_ENOSPC');
    const dir = join(h.root, 'state', 'appimage-keeper');
    assert.ok(r.error.message.includes(join(dir, 'lock')), r.error.message);
    assert.ok(r.error.hint?.includes(dir), r.error.hint);
  });
});

if (skip) process.stderr.write(`full-state-dir: skipped, ${skip}\n`);
