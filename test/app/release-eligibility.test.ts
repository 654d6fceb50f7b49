import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deferredText, releaseEligibility } from '../../src/app/release-eligibility.js';
import { parseDuration } from '../../src/config/duration.js';

const NOW = new Date('2026-11-26T15:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const THREE_DAYS = { min_release_age: 3 * 86_400 };

function published(at: string): { identity: string; releasedAt: { at: string; what: 'published' } } {
  return { identity: 'v1|a|sha256:1', releasedAt: { at, what: 'published' } };
}

void describe('releaseEligibility', () => {
  void test('no cooldown (absent or 0): eligible, nothing recorded', () => {
    assert.deepEqual(releaseEligibility(published(NOW.toISOString()), {}, undefined, NOW), {
      eligible: true,
    });
    assert.deepEqual(releaseEligibility({ identity: 'x' }, { min_release_age: 0 }, undefined, NOW), {
      eligible: true,
    });
  });

  void test('a release published 5 h ago waits until published + 3 d', () => {
    const at = new Date(NOW.getTime() - 5 * HOUR);
    const e = releaseEligibility(published(at.toISOString()), THREE_DAYS, undefined, NOW);
    assert.equal(e.eligible, false);
    if (e.eligible) return;
    assert.equal(e.eligibleAt.toISOString(), new Date(at.getTime() + 3 * DAY).toISOString());
    assert.equal(e.basis, 'published');
    assert.equal(e.note, undefined);
    assert.equal(
      deferredText('v1.8.0', e, NOW),
      'v1.8.0 published 5 h ago, eligible in 2 d 19 h (2026-11-29 10:00 UTC)',
    );
  });

  void test('exactly old enough is eligible; one second short is not', () => {
    const at = new Date(NOW.getTime() - 3 * DAY).toISOString();
    assert.equal(releaseEligibility(published(at), THREE_DAYS, undefined, NOW).eligible, true);
    const short = new Date(NOW.getTime() - 3 * DAY + 1000).toISOString();
    assert.equal(releaseEligibility(published(short), THREE_DAYS, undefined, NOW).eligible, false);
  });

  for (const [what, at, note] of [
    ['unparseable', 'yesterday-ish', /published time "yesterday-ish" is not a date/],
    [
      'far in the future',
      '2099-01-01T00:00:00Z',
      /published time 2099-01-01T00:00:00\.000Z is in the future/,
    ],
    ['a megabyte long', `2020-01-01T00:00:00Z${' '.repeat(1 << 20)}`, /is not a date/],
  ] as const) {
    void test(`a publication time ${what} counts as now (first sight), never earlier`, () => {
      const e = releaseEligibility(published(at), THREE_DAYS, undefined, NOW);
      assert.equal(e.eligible, false);
      if (e.eligible) return;
      assert.equal(e.basis, 'first seen');
      assert.equal(e.eligibleAt.getTime(), NOW.getTime() + 3 * DAY);
      assert.match(e.note ?? '', note);
      assert.ok((e.note ?? '').length < 300, 'the note quotes a bounded part of the text');
      assert.deepEqual(e.record, { identity: 'v1|a|sha256:1', at: NOW.toISOString() });
    });
  }

  void test('without a release time, the first sighting of the same identity counts and is kept', () => {
    const seen = { identity: 'u|4.0', at: new Date(NOW.getTime() - 2 * DAY).toISOString() };
    const e = releaseEligibility({ identity: 'u|4.0' }, THREE_DAYS, { firstSeen: seen }, NOW);
    assert.equal(e.eligible, false);
    if (e.eligible) return;
    assert.equal(e.record, undefined, 'the record in state stands');
    assert.equal(e.eligibleAt.getTime(), NOW.getTime() + DAY);
    const later = new Date(NOW.getTime() + DAY);
    assert.equal(
      releaseEligibility({ identity: 'u|4.0' }, THREE_DAYS, { firstSeen: seen }, later).eligible,
      true,
    );
  });

  void test('a sighting of another identity, a broken one or one in the future starts afresh', () => {
    for (const firstSeen of [
      { identity: 'u|3.9', at: '2020-01-01T00:00:00Z' },
      { identity: 'u|4.0', at: 'garbage' },
      { identity: 'u|4.0', at: '2099-01-01T00:00:00Z' },
    ]) {
      const e = releaseEligibility({ identity: 'u|4.0' }, THREE_DAYS, { firstSeen }, NOW);
      assert.equal(e.eligible, false, JSON.stringify(firstSeen));
      assert.deepEqual(e.record, { identity: 'u|4.0', at: NOW.toISOString() });
    }
  });
});

void describe('parseDuration', () => {
  void test('one whole number and one unit, at most a year; 0 is none', () => {
    assert.deepEqual(parseDuration('30m'), { seconds: 1800 });
    assert.deepEqual(parseDuration('12h'), { seconds: 43_200 });
    assert.deepEqual(parseDuration('3d'), { seconds: 259_200 });
    assert.deepEqual(parseDuration('1w'), { seconds: 604_800 });
    assert.deepEqual(parseDuration('365d'), { seconds: 365 * 86_400 });
    assert.deepEqual(parseDuration(0), { seconds: 0 });
    for (const bad of [
      '',
      '3',
      'd',
      '1.5d',
      '1d12h',
      '-1d',
      '3D',
      '3 days',
      '366d',
      '9999999d',
      3,
      null,
      '3d'.padStart(40, '0'),
    ]) {
      assert.ok('error' in parseDuration(bad), `${JSON.stringify(bad)} is refused`);
    }
  });
});
