import type { BlockMap } from './format.js';

/** New chunks `first..last` whose bytes sit back to back in the old file from `from` on. */
export interface CopyRun {
  first: number;
  last: number;
  from: number;
}

/**
 * Which chunks of the new file the old file already holds: a new chunk is copied when a chunk with
 * the same checksum and size exists in the old map (its first occurrence), consecutive copies from
 * consecutive old offsets form one run; every other chunk is downloaded.
 */
export function planCopies(old: BlockMap, next: BlockMap): CopyRun[] {
  const source = new Map<string, number>();
  for (let i = 0; i < old.sizes.length; i++) {
    const key = `${old.checksums[i]}:${old.sizes[i]}`;
    if (!source.has(key)) source.set(key, old.offsets[i]!);
  }
  const runs: CopyRun[] = [];
  let open: CopyRun | undefined;
  let expectFrom = -1;
  for (let i = 0; i < next.sizes.length; i++) {
    const from = source.get(`${next.checksums[i]}:${next.sizes[i]}`);
    if (from === undefined) {
      open = undefined;
      continue;
    }
    if (open && from === expectFrom) {
      open.last = i;
    } else {
      open = { first: i, last: i, from };
      runs.push(open);
    }
    expectFrom = from + next.sizes[i]!;
  }
  return runs;
}
