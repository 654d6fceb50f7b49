/**
 * doctor's `schedule` check on unit files it did not expect: units the user wrote, a FIFO or a huge
 * file in place of the service, syntax only systemd resolves. Each is reported, nothing hangs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { resolvePaths } from '../../src/config/paths.js';
import type { Context } from '../../src/context/context.js';
import { VERSION } from '../../src/core/version.js';
import { scheduleCheck } from '../../src/system/doctor/schedule-checks.js';
import { UNIT_HEADER } from '../../src/system/schedule/service-file.js';
import { makeTmpHome, type TmpHome } from '../helpers/tmp-home.js';
import { createHttpSettings } from '../../src/http/settings.js';

let h: TmpHome;
let unitDir = '';
const timer = () => join(unitDir, 'appimage-keeper.timer');
const service = () => join(unitDir, 'appimage-keeper.service');
const ctx = (): Context => ({
  env: h.env,
  paths: resolvePaths(h.env),
  now: () => new Date(),
  arch: process.arch,
  emit: () => undefined,
  http: createHttpSettings(),
});

before(async () => {
  h = await makeTmpHome();
  unitDir = join(h.root, 'config', 'systemd', 'user');
  await mkdir(unitDir, { recursive: true });
});
after(() => h.cleanup());

async function units(timerText: string | undefined, serviceText: string | undefined): Promise<void> {
  await rm(timer(), { force: true });
  await rm(service(), { force: true });
  if (timerText !== undefined) await writeFile(timer(), timerText);
  if (serviceText !== undefined) await writeFile(service(), serviceText);
}

const OUR_TIMER = `${UNIT_HEADER}\n[Timer]\nOnCalendar=weekly\n`;

void describe('doctor schedule check on unexpected unit files', () => {
  void test('no timer, or units the user wrote, are ok and not checked', async () => {
    await units(undefined, undefined);
    assert.deepEqual(await scheduleCheck(ctx()), {
      id: 'schedule',
      status: 'ok',
      message: 'no timer installed',
      hint: null,
    });
    await units('[Timer]\nOnCalendar=daily\n', '[Service]\nExecStart=/nonexistent\n');
    const own = await scheduleCheck(ctx());
    assert.equal(own.status, 'ok');
    assert.match(own.message, /was not written by schedule install; not checked$/);
  });

  void test('a timer of ours without its service fails, with the rewrite hint keeping --every', async () => {
    await units(OUR_TIMER, undefined);
    const c = await scheduleCheck(ctx());
    assert.equal(c.status, 'fail');
    assert.equal(c.message, `the timer has no service: ${service()} is missing`);
    assert.equal(c.hint, 'run `appimage-keeper schedule install --every weekly` to rewrite the unit');
  });

  void test('a FIFO or an oversized file in place of the service is refused without reading it', async () => {
    await units(OUR_TIMER, undefined);
    await promisify(execFile)('mkfifo', [service()]);
    const fifo = await scheduleCheck(ctx());
    assert.equal(fifo.status, 'fail');
    assert.match(fifo.message, /: not a regular file$/);
    await units(OUR_TIMER, `${UNIT_HEADER}\n${'#'.repeat(100_000)}\n`);
    const huge = await scheduleCheck(ctx());
    assert.equal(huge.status, 'fail');
    assert.match(huge.message, /: larger than 65536 bytes$/);
  });

  void test('what only systemd resolves is a warning naming the line; a relative program is not run', async () => {
    await units(OUR_TIMER, `${UNIT_HEADER}\n[Service]\nExecStart=%h/bin/appimage-keeper update\n`);
    const spec = await scheduleCheck(ctx());
    assert.equal(spec.status, 'warn');
    assert.match(spec.message, /ExecStart= on line 3 uses the systemd specifier %h$/);
    await units(OUR_TIMER, `${UNIT_HEADER}\n[Service]\nExecStart=appimage-keeper update\n`);
    const relative = await scheduleCheck(ctx());
    assert.equal(relative.status, 'warn');
    assert.equal(relative.message, 'the timer runs "appimage-keeper", not an absolute path; not checked');
  });

  void test('a program that is not executable fails; each ExecStart= is checked', async () => {
    const plain = join(h.root, 'plain file');
    await writeFile(plain, 'not a program');
    await units(OUR_TIMER, `${UNIT_HEADER}\n[Service]\nExecStart="${plain}" --quiet update\n`);
    const c = await scheduleCheck(ctx());
    assert.equal(c.status, 'fail');
    assert.equal(c.message, `the timer runs ${plain}, which is not executable`);
    await units(
      OUR_TIMER,
      `${UNIT_HEADER}\n[Service]\nExecStart=/bin/sh -c true\nExecStart="${process.execPath}" "${join(h.root, 'gone.mjs')}" update\n`,
    );
    const two = await scheduleCheck(ctx());
    assert.equal(two.status, 'fail');
    assert.match(
      two.message,
      new RegExp(`; the timer runs the script ${join(h.root, 'gone.mjs')}, which does not exist$`),
    );
  });

  void test('a drop-in (`systemctl --user edit`) that replaces ExecStart= is what gets checked', async () => {
    const dropIns = join(unitDir, 'appimage-keeper.service.d');
    const program = join(h.root, 'stable', 'appimage-keeper');
    await mkdir(dirname(program), { recursive: true });
    await writeFile(program, `#!/bin/sh\necho ${VERSION}\n`, { mode: 0o755 });
    await units(OUR_TIMER, `${UNIT_HEADER}\n[Service]\nExecStart=${program} --quiet update\n`);
    await mkdir(dropIns, { recursive: true });
    try {
      // Settings that leave ExecStart= alone change nothing the check looks at.
      await writeFile(join(dropIns, '10-nice.conf'), '[Service]\nNice=5\n');
      const plain = await scheduleCheck(ctx());
      assert.deepEqual([plain.status, plain.message], ['ok', `the timer runs ${program} (${VERSION})`]);
      await writeFile(
        join(dropIns, 'override.conf'),
        `[Service]\nExecStart=\nExecStart=${join(h.root, 'moved', 'appimage-keeper')} --quiet update\n`,
      );
      const c = await scheduleCheck(ctx());
      assert.equal(c.status, 'fail');
      assert.equal(
        c.message,
        `the timer runs ${join(h.root, 'moved', 'appimage-keeper')}, which does not exist`,
      );
      // Drop-ins are read as untrusted as the unit: a FIFO is refused, not waited on.
      await rm(join(dropIns, 'override.conf'));
      await promisify(execFile)('mkfifo', [join(dropIns, 'zz.conf')]);
      const fifo = await scheduleCheck(ctx());
      assert.equal(fifo.status, 'warn');
      assert.match(fifo.message, /zz\.conf: not a regular file/);
    } finally {
      await rm(dropIns, { recursive: true, force: true });
    }
  });
});
