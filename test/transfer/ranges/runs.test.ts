import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fixedLayout,
  missingRuns,
  offsetsLayout,
  runBytes,
  splitRuns,
  takeBatch,
} from '../../../src/transfer/ranges/runs.js';

void describe('chunk runs', () => {
  void test('fixed blocks: missing runs, splitting, byte ranges and batches', () => {
    const layout = fixedLayout(100, 950);
    assert.equal(layout.count, 10);
    const known = Uint8Array.from([1, 0, 0, 1, 0, 1, 1, 0, 0, 0]);
    assert.deepEqual(missingRuns(known), [
      { first: 1, last: 2 },
      { first: 4, last: 4 },
      { first: 7, last: 9 },
    ]);
    assert.deepEqual(missingRuns(known, [{ first: 2, last: 8 }]), [
      { first: 2, last: 2 },
      { first: 4, last: 4 },
      { first: 7, last: 8 },
    ]);
    assert.deepEqual(splitRuns([{ first: 7, last: 9 }], layout, 200), [
      { first: 7, last: 8 },
      { first: 9, last: 9 },
    ]);
    // Last block is short: the range ends at the file's last byte.
    assert.deepEqual(runBytes({ first: 7, last: 9 }, layout), [700, 949]);
    const queue = missingRuns(known);
    assert.deepEqual(takeBatch(queue, 2, 1 << 20, layout), [
      { first: 1, last: 2 },
      { first: 4, last: 4 },
    ]);
    assert.deepEqual(queue, [{ first: 7, last: 9 }]);
    // The byte budget stops a batch, but a batch always takes at least one run.
    const q2 = [
      { first: 0, last: 8 },
      { first: 9, last: 9 },
    ];
    assert.deepEqual(takeBatch(q2, 32, 500, layout), [{ first: 0, last: 8 }]);
  });

  void test('variable chunks: ranges follow the offsets, splits respect the byte budget', () => {
    // Chunks of 10, 30, 5, 55 and 20 bytes.
    const layout = offsetsLayout([0, 10, 40, 45, 100], 120);
    assert.equal(layout.count, 5);
    assert.deepEqual(runBytes({ first: 1, last: 2 }, layout), [10, 44]);
    assert.deepEqual(runBytes({ first: 4, last: 4 }, layout), [100, 119]);
    assert.deepEqual(splitRuns([{ first: 0, last: 4 }], layout, 45), [
      { first: 0, last: 2 },
      { first: 3, last: 3 },
      { first: 4, last: 4 },
    ]);
    // A chunk larger than the budget still forms a run of its own.
    assert.deepEqual(splitRuns([{ first: 3, last: 4 }], layout, 10), [
      { first: 3, last: 3 },
      { first: 4, last: 4 },
    ]);
    const queue = [
      { first: 0, last: 1 },
      { first: 3, last: 3 },
      { first: 4, last: 4 },
    ];
    assert.deepEqual(takeBatch(queue, 8, 100, layout), [
      { first: 0, last: 1 },
      { first: 3, last: 3 },
    ]);
  });
});
