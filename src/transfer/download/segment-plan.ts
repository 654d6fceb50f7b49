/** A byte range [start, end) of the file and how far its connection got. */
export interface Segment {
  start: number;
  /** Exclusive; lowered when another connection steals the tail. */
  end: number;
  /** Bytes received up to here (including bytes not yet flushed to disk). */
  received: number;
  /** Bytes on disk up to here. */
  written: number;
}

// Split points land on this boundary: friendlier to the page cache and the file system.
const ALIGN = 64 * 1024;

/** Splits `size` bytes into at most `connections` equal segments of at least `minSegmentBytes`. */
export function initialSegments(size: number, connections: number, minSegmentBytes: number): Segment[] {
  const count = Math.max(1, Math.min(connections, Math.floor(size / Math.max(1, minSegmentBytes))));
  const segments: Segment[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const ideal = Math.round((size * (i + 1)) / count);
    const end = i === count - 1 ? size : Math.max(start + 1, Math.floor(ideal / ALIGN) * ALIGN);
    segments.push({ start, end, received: start, written: start });
    start = end;
  }
  return segments;
}

/** End of the bytes on disk with no gap from offset 0 (segments tile the file, sorted by start). */
export function contiguousEnd(segments: readonly Segment[]): number {
  let cursor = 0;
  for (const seg of segments) {
    if (seg.start !== cursor) break;
    cursor = seg.written;
    if (seg.written < seg.end) break;
  }
  return cursor;
}

/** Bytes on disk over all segments. */
export function writtenBytes(segments: readonly Segment[]): number {
  return segments.reduce((sum, s) => sum + (s.written - s.start), 0);
}

/**
 * Work stealing: takes the second half of the segment with the most bytes left, when that is at
 * least `2 * minStealBytes`, so one slow connection does not set the finish time. The victim's
 * `end` is lowered (its connection stops there) and the new segment is inserted in order.
 */
export function stealWork(segments: Segment[], minStealBytes: number): Segment | undefined {
  let victim: Segment | undefined;
  for (const seg of segments) {
    if (!victim || seg.end - seg.received > victim.end - victim.received) victim = seg;
  }
  if (!victim) return undefined;
  const left = victim.end - victim.received;
  if (left < 2 * minStealBytes) return undefined;
  let mid = victim.received + Math.floor(left / 2);
  const aligned = Math.floor(mid / ALIGN) * ALIGN;
  if (aligned > victim.received) mid = aligned;
  const stolen: Segment = { start: mid, end: victim.end, received: mid, written: mid };
  victim.end = mid;
  segments.splice(segments.indexOf(victim) + 1, 0, stolen);
  return stolen;
}

/**
 * Segments tiling `size` bytes when `done` (sorted, disjoint [start, end) ranges) are already on
 * disk: each done range is a finished segment, each gap an open one, gaps split further (on the
 * same boundaries) until there are about `connections` open segments of at least `minSegmentBytes`.
 */
export function resumedSegments(
  size: number,
  done: ReadonlyArray<readonly [number, number]>,
  connections: number,
  minSegmentBytes: number,
): Segment[] {
  const tiles: Segment[] = [];
  let cursor = 0;
  const gaps: Array<[number, number]> = [];
  for (const [a, b] of [...done, [size, size] as const]) {
    if (a > cursor) gaps.push([cursor, a]);
    if (b > a) tiles.push({ start: a, end: b, received: b, written: b });
    cursor = Math.max(cursor, b);
  }
  const missing = gaps.reduce((sum, [a, b]) => sum + (b - a), 0);
  const share = Math.max(minSegmentBytes, Math.ceil(missing / Math.max(1, connections)));
  for (const [a, b] of gaps) {
    const parts = Math.max(1, Math.round((b - a) / share));
    for (const seg of initialSegments(b - a, parts, 1)) {
      tiles.push({ start: a + seg.start, end: a + seg.end, received: a + seg.start, written: a + seg.start });
    }
  }
  return tiles.sort((x, y) => x.start - y.start);
}
