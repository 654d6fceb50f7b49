/**
 * How a file is cut into the units a delta client verifies and fetches: fixed-size zsync blocks or
 * the variable, content-defined chunks of a block map. Chunks are numbered 0..count-1 in file order.
 */
export interface ChunkLayout {
  readonly count: number;
  /** Total file length in bytes. */
  readonly length: number;
  /** Offset of the first byte of chunk `id`. */
  start(id: number): number;
  /** Offset just past the last byte of chunk `id`. */
  end(id: number): number;
}

/** Consecutive chunks `first..last` (inclusive). */
export interface ChunkRun {
  first: number;
  last: number;
}

/** Blocks of `blockSize` bytes, the last one clamped to `length`. */
export function fixedLayout(blockSize: number, length: number): ChunkLayout {
  return {
    count: Math.ceil(length / blockSize),
    length,
    start: (id) => id * blockSize,
    end: (id) => Math.min((id + 1) * blockSize, length),
  };
}

/** Chunks starting at `offsets[i]`, each ending where the next one starts (the last at `length`). */
export function offsetsLayout(offsets: readonly number[], length: number): ChunkLayout {
  return {
    count: offsets.length,
    length,
    start: (id) => offsets[id]!,
    end: (id) => (id + 1 < offsets.length ? offsets[id + 1]! : length),
  };
}

/** Runs of chunks not yet known (`known[id] === 0`), within `within` (default: all), in file order. */
export function missingRuns(known: Uint8Array, within?: readonly ChunkRun[]): ChunkRun[] {
  const spans = within ?? [{ first: 0, last: known.length - 1 }];
  const runs: ChunkRun[] = [];
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

/** Byte range `[start, endInclusive]` of a run. */
export function runBytes(run: ChunkRun, layout: ChunkLayout): [number, number] {
  return [layout.start(run.first), layout.end(run.last) - 1];
}

/**
 * Cuts runs longer than about `maxBytes` (never below one chunk) so large changes can be fetched
 * over several connections.
 */
export function splitRuns(runs: readonly ChunkRun[], layout: ChunkLayout, maxBytes: number): ChunkRun[] {
  const out: ChunkRun[] = [];
  for (const run of runs) {
    let first = run.first;
    while (first <= run.last) {
      let last = first;
      const from = layout.start(first);
      while (last < run.last && layout.end(last + 1) - from <= maxBytes) last++;
      out.push({ first, last });
      first = last + 1;
    }
  }
  return out;
}

/** Removes and returns the next request's worth of runs: at most `maxRanges` and about `maxBytes`. */
export function takeBatch(
  queue: ChunkRun[],
  maxRanges: number,
  maxBytes: number,
  layout: ChunkLayout,
): ChunkRun[] {
  const batch: ChunkRun[] = [];
  let bytes = 0;
  while (queue.length > 0 && batch.length < maxRanges) {
    const next = queue[0]!;
    const size = layout.end(next.last) - layout.start(next.first);
    if (batch.length > 0 && bytes + size > maxBytes) break;
    batch.push(next);
    queue.shift();
    bytes += size;
  }
  return batch;
}
