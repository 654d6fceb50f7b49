// doctor's sentences: a failed app's reason itself (not "see why with update --show-all"), no
// "failed -;" when the last run failed nothing, and verbs that agree with one desktop entry.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { resolvePaths } from '../../src/config/paths.js';
import type { Context } from '../../src/context/context.js';
import { createHttpSettings } from '../../src/http/settings.js';
import { runDoctor } from '../../src/system/doctor/run-doctor.js';
import type { DoctorCheck } from '../../src/system/doctor/types.js';
import { makeTmpHome } from '../helpers/tmp-home.js';

function contextFor(env: NodeJS.ProcessEnv): Context {
  const paths = resolvePaths(env);
  return {
    env,
    paths,
    now: () => new Date(),
    arch: process.arch,
    emit: () => undefined,
    http: createHttpSettings(),
  };
}

function find(checks: DoctorCheck[], id: string): DoctorCheck {
  const c = checks.find((x) => x.id === id);
  assert.ok(c, `no check ${id}`);
  return c;
}

const RUN = {
  command: 'update',
  startedAt: '2026-11-01T00:00:00Z',
  finishedAt: '2026-11-01T00:01:00Z',
  summary: {},
  updated: [],
};

async function writeState(stateDir: string, apps: Record<string, unknown>, failed: string[]): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const state = { schema: 1, apps, forgeKinds: {}, rateLimits: {}, lastRun: { ...RUN, failed } };
  await writeFile(join(stateDir, 'state.json'), JSON.stringify(state));
}

const lastError = (message: string) => ({
  strategy: 'forge',
  lastError: { code: 'ASSET_NO_MATCH', message, at: '2026-11-01T00:01:00Z' },
});

void describe('doctor wording', () => {
  void test('a failed app shows its reason and the command to retry it, never "--show-all"', async () => {
    const h = await makeTmpHome();
    try {
      await writeState(h.stateDir, { obsidian: lastError('no asset of v2 matches "Obsidian-*.AppImage"') }, [
        'obsidian',
      ]);
      const run = find(await runDoctor(contextFor(h.env), { online: false }), 'last-run');
      assert.equal(run.status, 'warn');
      assert.match(
        run.message,
        /obsidian \(ASSET_NO_MATCH\): no asset of v2 matches "Obsidian-\*\.AppImage"/,
      );
      assert.doesNotMatch(run.hint ?? '', /show-all/);
      assert.match(run.hint ?? '', /appimage-keeper update obsidian/);
    } finally {
      await h.cleanup();
    }
  });

  void test('an app whose last error outlived a run that failed nothing: no "failed -"', async () => {
    const h = await makeTmpHome();
    try {
      await writeState(h.stateDir, { tool: lastError('gone') }, []);
      const run = find(await runDoctor(contextFor(h.env), { online: false }), 'last-run');
      assert.doesNotMatch(run.message, /failed -/);
      assert.match(run.message, /tool \(ASSET_NO_MATCH\): gone/);
    } finally {
      await h.cleanup();
    }
  });

  void test('one dead foreign desktop entry "starts" an AppImage that is gone', async () => {
    const h = await makeTmpHome();
    try {
      const apps = join(h.env.XDG_DATA_HOME ?? '', 'applications');
      await mkdir(apps, { recursive: true });
      await writeFile(
        join(apps, 'appimagekit_x-Tool.desktop'),
        '[Desktop Entry]\nType=Application\nName=Tool\nExec=/nowhere/Tool.AppImage %U\n',
      );
      const dead = find(await runDoctor(contextFor(h.env), { online: false }), 'foreign-desktop-entries');
      assert.match(dead.message, /^1 desktop entry starts an AppImage that is gone/);
    } finally {
      await h.cleanup();
    }
  });
});
