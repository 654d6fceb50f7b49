// The words of `check` and `update` lines: a rebuilt release under the same tag, a dry run, and
// the summary naming the apps it skipped without listing them.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { outcomeFor, summarize, type AppOutcome } from '../../src/app/outcome.js';
import { createOutput } from '../../src/render/output.js';
import { outcomeLine, summaryLine } from '../../src/render/render-outcomes.js';

const out = createOutput(
  { json: false, quiet: false, verbose: false, color: false },
  new PassThrough(),
  new PassThrough(),
  {},
);

function outcome(
  status: AppOutcome['status'],
  from: string | null,
  to: string | null,
  extra: Partial<AppOutcome> = {},
): AppOutcome {
  return { ...outcomeFor('app', status, from), to_version: to, ...extra };
}

void describe('outcome lines', () => {
  void test('a new build under the same version says so instead of v3.1.24 → v3.1.24', () => {
    assert.equal(
      outcomeLine(outcome('update_available', 'v3.1.24', 'v3.1.24'), out),
      'available    app new build of v3.1.24',
    );
    assert.match(
      outcomeLine(outcome('updated', 'v3.1.24', 'v3.1.24'), out),
      /^updated {6}app new build of v3\.1\.24$/m,
    );
    assert.equal(
      outcomeLine(outcome('update_available', 'v3.1.23', 'v3.1.24'), out),
      'available    app v3.1.23 → v3.1.24',
    );
  });

  void test('a dry run says what it would update, not "skipped"', () => {
    const dry = outcome('skipped', '1.0.0', '2.0.0', {
      skip: 'dry_run',
      reason: 'dry run: would download',
      url: 'https://example.com/app-2.0.0.AppImage',
    });
    assert.equal(
      outcomeLine(dry, out),
      'would update app 1.0.0 → 2.0.0\n             https://example.com/app-2.0.0.AppImage',
    );
  });

  void test('the update summary counts a dry run as "would update" and names skipped apps', () => {
    const outcomes = [
      outcome('skipped', '1.0.0', '2.0.0', { name: 'a', skip: 'dry_run', reason: 'dry run' }),
      outcome('skipped', '1.0.0', null, { name: 'gone', skip: 'removed', reason: 'removed' }),
      outcome('skipped', null, null, { name: 'off', skip: 'ignored', reason: 'ignored' }),
      outcome('up_to_date', '1.0.0', '1.0.0', { name: 'b' }),
    ];
    assert.equal(
      summaryLine(summarize(outcomes), 'update', [], outcomes),
      '1 would update, 1 up to date, 0 rate-limited, 0 failed, 2 skipped (removed: gone; ignored: off)',
    );
  });
});
