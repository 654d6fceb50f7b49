/** A `Content-Range: bytes first-last/total` value (`total` undefined for `*`). */
export interface ContentRange {
  first: number;
  last: number;
  total: number | undefined;
}

/** Parses a byte `Content-Range`; undefined when malformed or inverted. */
export function parseContentRange(value: string | undefined): ContentRange | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*bytes\s+(\d{1,16})-(\d{1,16})\/(\d{1,16}|\*)\s*$/i.exec(value);
  if (!m) return undefined;
  const first = Number(m[1]);
  const last = Number(m[2]);
  const total = m[3] === '*' ? undefined : Number(m[3]);
  if (last < first || (total !== undefined && last >= total)) return undefined;
  return { first, last, total };
}

/** The boundary parameter of a `multipart/byteranges` content type, or undefined for any other type. */
export function byterangesBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const [type, ...params] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'multipart/byteranges') return undefined;
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    const raw = p.slice(eq + 1).trim();
    const value = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
    return value.length > 0 && value.length <= 200 ? value : undefined;
  }
  return undefined;
}
