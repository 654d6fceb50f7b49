import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { AppOutcome } from '../../src/app/outcome.js';
import { buildNotification, notifySendArgs } from '../../src/app/notify.js';
import { hasSessionBus } from '../../src/system/session-bus.js';
import { runInProcess } from '../helpers/run-in-process.js';
import { fakeProgram } from '../system/fake-program.js';
import { makeSimHome, type SimHome } from '../system/sim-home.js';

function outcome(name: string, status: AppOutcome['status'], extra: Partial<AppOutcome> = {}): AppOutcome {
  return {
    name,
    status,
    from_version: null,
    to_version: null,
    path: null,
    error: null,
    retry_at: null,
    warnings: [],
    ...extra,
  };
}

void describe('notification content', () => {
  void test('counts only updated and failed apps that want a notification', () => {
    const outcomes = [
      outcome('a', 'updated', { from_version: '1.0', to_version: '1.1' }),
      outcome('b', 'failed', { error: { code: 'X', message: 'size <mismatch> & more\nsecond line' } }),
      outcome('c', 'updated', { to_version: '2.0' }),
      outcome('d', 'up_to_date'),
      outcome('e', 'rate_limited'),
    ];
    const n = buildNotification(outcomes, (app) => app !== 'c');
    assert.deepEqual(n, {
      summary: '1 AppImage updated, 1 failed',
      body: 'a 1.0 → 1.1\nb failed: size &lt;mismatch&gt; &amp; more',
      urgency: 'critical',
    });
    assert.deepEqual(notifySendArgs(n), [
      '--app-name=appimage-keeper',
      '--urgency=critical',
      '--icon=system-software-update',
      '1 AppImage updated, 1 failed',
      'a 1.0 → 1.1\nb failed: size &lt;mismatch&gt; &amp; more',
    ]);
    assert.equal(
      buildNotification(outcomes, (app) => app === 'd' || app === 'e'),
      undefined,
    );
    assert.equal(
      buildNotification([outcome('c', 'updated', { to_version: '2' })], () => true)?.urgency,
      'normal',
    );
  });

  void test('a session bus is the bus address variable or a socket at $XDG_RUNTIME_DIR/bus', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ak-'));
    let server: Server | undefined;
    try {
      assert.equal(await hasSessionBus({ XDG_RUNTIME_DIR: dir }), false);
      assert.equal(await hasSessionBus({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' }), true);
      const srv = createServer();
      server = srv;
      await new Promise<void>((resolve) => srv.listen(join(dir, 'bus'), resolve));
      assert.equal(await hasSessionBus({ XDG_RUNTIME_DIR: dir }), true);
      assert.equal(await hasSessionBus({ XDG_RUNTIME_DIR: 'relative' }), false);
    } finally {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

void describe('update sends one notification through notify-send', () => {
  let s: SimHome;
  let calls: () => Promise<string[][]>;
  let env: NodeJS.ProcessEnv;
  const update = (e: NodeJS.ProcessEnv = env) => runInProcess(['--quiet', 'update'], { env: e });

  before(async () => {
    s = await makeSimHome('notify: true');
    // A second app that does not want notifications.
    await s.h.writeRecipe(
      'quiet',
      `name: quiet\nnotify: false\nstrategy:\n  strategy: direct\n  url: ${s.sim.url}/downloads/quiet.AppImage\n  check_method: etag\n`,
    );
    const bin = join(s.h.root, 'bin');
    calls = (await fakeProgram(bin, 'notify-send')).calls;
    env = {
      ...s.h.env,
      PATH: `${bin}:${s.h.env.PATH ?? ''}`,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    };
    await s.publish('1.0.0');
    s.sim.putAsset('/downloads/quiet.AppImage', Buffer.from('not an appimage'), { etag: '"q1"' });
  });
  after(() => s.cleanup());

  void test('updated and failed apps are listed; notify: false apps are not', async () => {
    const r = await update();
    assert.equal(r.code, 1, 'quiet fails verification');
    assert.deepEqual(await calls(), [
      [
        '--app-name=appimage-keeper',
        '--urgency=normal',
        '--icon=system-software-update',
        '1 AppImage updated',
        'hello v1.0.0',
      ],
    ]);
  });

  void test('nothing changed: no notification', async () => {
    s.sim.removeAsset('/downloads/quiet.AppImage');
    const r = await update();
    assert.equal(r.code, 1);
    assert.equal((await calls()).length, 1, 'only the earlier call');
  });

  void test('no session bus, or notify-send missing: skipped silently', async () => {
    await s.publish('1.1.0');
    const noBus = { ...env };
    delete noBus.DBUS_SESSION_BUS_ADDRESS;
    const r = await update(noBus);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.includes('notify'), false);
    assert.equal((await calls()).length, 1);

    s.sim.putAsset('/downloads/quiet.AppImage', Buffer.from('still not one'), { etag: '"q2"' });
    await s.h.writeRecipe(
      'quiet',
      `name: quiet\nstrategy:\n  strategy: direct\n  url: ${s.sim.url}/downloads/quiet.AppImage\n  check_method: etag\n`,
    );
    const failed = await update();
    assert.equal(failed.code, 1);
    const last = (await calls()).at(-1);
    assert.equal(last?.[1], '--urgency=critical');
    assert.equal(last?.[3], '1 failed');
    assert.match(last?.[4] ?? '', /^quiet failed: /);

    const withoutProgram = await update({ ...env, PATH: s.h.env.PATH ?? '' });
    assert.equal(withoutProgram.code, 1);
    assert.equal((await calls()).length, 2);
  });
});
