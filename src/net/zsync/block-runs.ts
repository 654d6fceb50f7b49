/** Consecutive target blocks `first..last` (inclusive). */
export interface BlockRun {
  first: number;
  last: number;
}

/** Runs of blocks not yet known, within `within` (default: the whole file), in file order. */
export function missingRuns(known: Uint8Array, within?: readonly BlockRun[]): BlockRun[] {
  const spans = within ?? [{ first: 0, last: known.length - 1 }];
  const runs: BlockRun[] = [];
  for (const span of spans) {
    let start = -1;
    for (let id = span.first; id <= span.last; id++) {
      if (known[id] === 0) {
        if (start < 0) start = id;
      } else if (start >= 0) {
        runs.push({ first: start, last: id - 1 });
        start = -1;
      }
    }
    if (start >= 0) runs.push({ first: start, last: span.last });
  }
  return runs;
}

/** Cuts runs longer than `maxBlocks` so large changes can be fetched over several connections. */
export function splitRuns(runs: readonly BlockRun[], maxBlocks: number): BlockRun[] {
  const out: BlockRun[] = [];
  for (const run of runs) {
    for (let first = run.first; first <= run.last; first += maxBlocks)
      out.push({ first, last: Math.min(run.last, first + maxBlocks - 1) });
  }
  return out;
}

/** Byte range `[start, endInclusive]` of a run, the last block clamped to the file length. */
export function runBytes(run: BlockRun, blockSize: number, length: number): [number, number] {
  return [run.first * blockSize, Math.min((run.last + 1) * blockSize, length) - 1];
}

/** Removes and returns the next request's worth of runs: at most `maxRanges` and about `maxBytes`. */
export function takeBatch(
  queue: BlockRun[],
  maxRanges: number,
  maxBytes: number,
  blockSize: number,
): BlockRun[] {
  const batch: BlockRun[] = [];
  let bytes = 0;
  while (queue.length > 0 && batch.length < maxRanges) {
    const next = queue[0]!;
    const size = (next.last - next.first + 1) * blockSize;
    if (batch.length > 0 && bytes + size > maxBytes) break;
    batch.push(next);
    queue.shift();
    bytes += size;
  }
  return batch;
}
