import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseInterval } from '../../src/system/schedule/interval.js';
import { renderUnits, serviceArgv } from '../../src/system/schedule/units.js';

void test('schedule install --locked: the timer runs `update --locked`; without it, plain `update`', () => {
  const program = ['/usr/local/bin/appimage-keeper'];
  assert.deepEqual(serviceArgv({ program, locked: true }), [...program, '--quiet', 'update', '--locked']);
  assert.deepEqual(serviceArgv({ program }), [...program, '--quiet', 'update']);
  const units = renderUnits('appimage-keeper', { program, locked: true }, parseInterval('daily'));
  assert.match(units.service, /^ExecStart=.*"update" "--locked"$/m);
});
