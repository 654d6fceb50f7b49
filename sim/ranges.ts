/** Parsing of `Range: bytes=...` headers against a known size (RFC 9110 section 14). */

/** One satisfiable byte range, end inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/** 'none': no usable Range header (serve 200); 'unsatisfiable': 416; otherwise the ranges. */
export type RangeRequest =
  { kind: 'none' } | { kind: 'unsatisfiable' } | { kind: 'ranges'; ranges: ByteRange[] };

const SPEC = /^(\d*)-(\d*)$/;

/** Interprets a Range header; a malformed header is ignored as RFC 9110 allows. */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'none' };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match?.[1]) return { kind: 'none' };
  const ranges: ByteRange[] = [];
  for (const rawSpec of match[1].split(',')) {
    const spec = rawSpec.trim();
    if (spec === '') continue;
    const parts = SPEC.exec(spec);
    if (!parts) return { kind: 'none' };
    const [, first = '', last = ''] = parts;
    if (first === '' && last === '') return { kind: 'none' };
    if (first === '') {
      const suffix = Number(last);
      if (suffix === 0 || size === 0) continue;
      ranges.push({ start: Math.max(0, size - suffix), end: size - 1 });
      continue;
    }
    const start = Number(first);
    const end = last === '' ? size - 1 : Number(last);
    if (last !== '' && end < start) return { kind: 'none' };
    if (start >= size) continue;
    ranges.push({ start, end: Math.min(end, size - 1) });
  }
  return ranges.length === 0 ? { kind: 'unsatisfiable' } : { kind: 'ranges', ranges };
}
